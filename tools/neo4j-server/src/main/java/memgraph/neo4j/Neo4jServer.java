package memgraph.neo4j;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.io.ByteUnit;

/**
 * A Neo4j 5 Community server on loopback, for memgraph's tests and benchmarks.
 *
 * <p>Why not neo4j-harness alone: the harness deletes its folder on close and leaves auth off. This runs the
 * same Community DBMS on a persistent home, so it can be stopped (SIGTERM) and started again on the same
 * data and the same Bolt port, with auth on and an explicit page cache (the embedded default of 8 MB makes
 * benchmarks meaningless). The heap is the JVM's (-Xmx, set by the {@code run} script).
 *
 * <p>Usage: {@code Neo4jServer --home DIR [--port N] [--password P] [--pagecache 512m]}. Port 0 (the
 * default) picks a free port on first start and remembers it in {@code DIR/bolt.port}; the password comes
 * from {@code --password} or the {@code NEO4J_PASSWORD} environment variable. When Bolt accepts connections
 * the server prints one line, {@code bolt://127.0.0.1:PORT}, on standard output.
 */
public final class Neo4jServer {
    private Neo4jServer() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = parse(args);
        Path home = Path.of(require(opts, "home")).toAbsolutePath();
        Files.createDirectories(home);
        String password = opts.getOrDefault("password", System.getenv("NEO4J_PASSWORD"));
        if (password == null || password.length() < 8) {
            fail("a password of at least 8 characters is needed (--password or NEO4J_PASSWORD)");
        }
        int port = boltPort(home, Integer.parseInt(opts.getOrDefault("port", "0")));
        long pageCache = ByteUnit.parse(opts.getOrDefault("pagecache", "512m"));

        DatabaseManagementService dbms = new DatabaseManagementServiceBuilder(home)
                .setConfig(BoltConnector.enabled, true)
                .setConfig(BoltConnector.listen_address, new SocketAddress("127.0.0.1", port))
                .setConfig(BoltConnector.advertised_address, new SocketAddress("127.0.0.1", port))
                .setConfig(HttpConnector.enabled, false)
                .setConfig(GraphDatabaseSettings.auth_enabled, true)
                .setConfig(GraphDatabaseSettings.pagecache_memory, pageCache)
                .setConfig(GraphDatabaseSettings.transaction_timeout, Duration.ofMinutes(10))
                .build();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            dbms.shutdown();  // SIGTERM / SIGINT: flush and close the store cleanly
            stopped.countDown();
        }, "neo4j-shutdown"));

        setPassword(dbms, password);
        awaitBolt(port, Duration.ofSeconds(120));
        System.out.println("bolt://127.0.0.1:" + port);
        System.out.flush();
        stopped.await();
    }

    /** The neo4j user's password, set through the system database (no change required at first login). */
    private static void setPassword(DatabaseManagementService dbms, String password) {
        try {
            dbms.database("system").executeTransactionally(
                    "ALTER USER neo4j SET PASSWORD $password CHANGE NOT REQUIRED", Map.of("password", password));
        } catch (RuntimeException e) {
            // A restart with the same password: Neo4j refuses to "change" a password to itself.
            String message = String.valueOf(e.getMessage());
            if (!message.contains("Old password and new password cannot be the same")) {
                throw e;
            }
        }
    }

    /** The port to listen on: the one given, else the one this home used before, else a free one. */
    private static int boltPort(Path home, int requested) throws IOException {
        Path file = home.resolve("bolt.port");
        int port = requested;
        if (port == 0 && Files.exists(file)) {
            port = Integer.parseInt(Files.readString(file, StandardCharsets.US_ASCII).trim());
        }
        if (port == 0) {
            try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
                port = socket.getLocalPort();
            }
        }
        Files.writeString(file, Integer.toString(port), StandardCharsets.US_ASCII);
        return port;
    }

    private static void awaitBolt(int port, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
                return;
            } catch (IOException e) {
                Thread.sleep(100);
            }
        }
        fail("Bolt did not answer on port " + port + " within " + timeout.toSeconds() + " s");
    }

    private static Map<String, String> parse(String[] args) {
        Map<String, String> opts = new java.util.HashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                fail("usage: Neo4jServer --home DIR [--port N] [--password P] [--pagecache 512m]");
            }
            opts.put(args[i].substring(2), args[++i]);
        }
        return opts;
    }

    private static String require(Map<String, String> opts, String key) {
        String value = opts.get(key);
        if (value == null) {
            fail("--" + key + " is required");
        }
        return value;
    }

    private static void fail(String message) {
        System.err.println("neo4j-server: " + message);
        System.exit(2);
    }
}
