"""Writes tests/data/secrets_corpus.json: fake but format-valid secrets in realistic context, and near misses.

Deterministic (seeded). Every secret here is random and was never issued by any vendor. Rerun after editing:
    python tests/data/make_secrets_corpus.py
"""

from __future__ import annotations

import base64
import json
import random
import string
from pathlib import Path

R = random.Random(20240601)
UP = string.ascii_uppercase
LOW = string.ascii_lowercase
DIG = string.digits
ALNUM = UP + LOW + DIG
B64 = ALNUM + "+/"
URLSAFE = ALNUM + "-_"
HEX = "0123456789abcdef"


def rnd(alphabet: str, n: int) -> str:
    while True:
        s = "".join(R.choice(alphabet) for _ in range(n))
        # real tokens mix classes; make sure the fake ones do too when the alphabet allows it
        if (
            alphabet in (ALNUM, URLSAFE, B64)
            and n >= 8
            and not (any(c.isupper() for c in s) and any(c.islower() for c in s) and any(c.isdigit() for c in s))
        ):
            continue
        return s


def b64url(data: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(data, separators=(",", ":")).encode()).decode().rstrip("=")


def pem(label: str, lines: int = 8) -> str:
    body = "\n".join(rnd(B64, 64) for _ in range(lines))
    return f"-----BEGIN {label}-----\n{body}\n{rnd(B64, 20)}==\n-----END {label}-----"


positives: list[dict] = []


def add(type_: str, secret: str, *contexts: str) -> None:
    for ctx in contexts:
        positives.append({"type": type_, "secret": secret, "text": ctx.format(s=secret)})


def many(type_: str, make, contexts: list[str]) -> None:
    for ctx in contexts:
        s = make()
        positives.append({"type": type_, "secret": s, "text": ctx.format(s=s)})


AWS_PREFIX = ["AKIA", "ASIA", "AKIA", "AROA", "AKIA", "AIDA"]
many(
    "aws_access_key",
    lambda: R.choice(AWS_PREFIX) + rnd(UP + "234567", 16),
    [
        "aws_access_key_id = {s}",
        "Use {s} for the deploy user in the staging account.",
        "export AWS_ACCESS_KEY_ID={s}",
        "I pasted the key {s} into the CI settings yesterday",
        "[default]\naws_access_key_id={s}\nregion=eu-west-1",
        "The IAM user ci-bot has access key {s}, rotate it monthly.",
    ],
)
many(
    "aws_secret_key",
    lambda: rnd(B64, 40),
    [
        "aws_secret_access_key = {s}",
        "AWS_SECRET_ACCESS_KEY={s}",
        '"SecretAccessKey": "{s}"',
        "aws_secret_access_key: {s}",
        'export AWS_SECRET_ACCESS_KEY="{s}"',
    ],
)
many(
    "gcp_api_key",
    lambda: "AIza" + rnd(URLSAFE, 35),
    [
        "The Maps key is {s}",
        "GOOGLE_API_KEY={s}",
        "curl 'https://maps.googleapis.com/maps/api/geocode/json?address=Berlin&key={s}'",
        'firebase config: apiKey: "{s}"',
        "Use {s} for the YouTube Data API quota project.",
    ],
)
many(
    "gcp_oauth_secret",
    lambda: "GOCSPX-" + rnd(URLSAFE, 28),
    [
        "client_secret: {s}",
        "The OAuth client secret {s} belongs to the web app.",
        '{{"web": {{"client_id": "1234-abc.apps.googleusercontent.com", "client_secret": "{s}"}}}}',
    ],
)
many(
    "gcp_oauth_token",
    lambda: "ya29." + rnd(URLSAFE, 120),
    [
        "access token {s} expires in an hour",
        "curl -H 'Authorization: Bearer {s}' https://www.googleapis.com/drive/v3/files",
    ],
)
many(
    "private_key",
    lambda: pem("PRIVATE KEY", 6).replace("\n", "\\n"),
    [
        '{{"type": "service_account", "project_id": "demo-123", "private_key": "{s}\\n"}}',
        'GCP key file: "private_key": "{s}"',
    ],
)
many(
    "azure_storage_key",
    lambda: "AccountKey=" + rnd(B64, 86) + "==",
    [
        "DefaultEndpointsProtocol=https;AccountName=stdemo01;{s};EndpointSuffix=core.windows.net",
        "the storage connection uses {s}",
        'AZURE_STORAGE_CONNECTION_STRING="DefaultEndpointsProtocol=https;AccountName=logs;{s}"',
    ],
)
many(
    "azure_client_secret",
    lambda: rnd(ALNUM, 3) + R.choice(DIG) + "Q~" + rnd(ALNUM + "_~.-", 34),
    [
        "The app registration secret is {s}",
        "AZURE_CLIENT_SECRET={s}",
        "client secret value: {s} (expires 2025-06-01)",
    ],
)
many(
    "azure_sas_token",
    lambda: "sig=" + rnd(ALNUM, 43) + "%3D",
    [
        "https://stdemo.blob.core.windows.net/backups/db.bak?sv=2022-11-02&ss=b&srt=o&sp=r&se=2025-01-01T00:00:00Z&{s}",
        "SAS URL: https://acct.blob.core.windows.net/c?sp=racwdl&st=2024-01-01&{s}",
    ],
)
many(
    "github_token",
    lambda: R.choice(["ghp_", "gho_", "ghs_", "ghu_"]) + rnd(ALNUM, 36),
    [
        "GITHUB_TOKEN={s}",
        "my github token is {s}",
        "git clone https://{s}@github.com/acme/private-repo.git",
        "Use {s} to push to the fork.",
        "token: {s}",
        "The Actions bot installation token {s} expired at noon.",
    ],
)
many(
    "github_token",
    lambda: "github_pat_" + rnd(ALNUM, 22) + "_" + rnd(ALNUM, 59),
    [
        "Fine-grained PAT: {s}",
        "gh auth login --with-token <<< {s}",
    ],
)
many(
    "gitlab_token",
    lambda: "glpat-" + rnd(URLSAFE, 20),
    [
        "GITLAB_TOKEN={s}",
        "The gitlab personal access token {s} has api scope",
        "curl --header 'PRIVATE-TOKEN: {s}' https://gitlab.example.com/api/v4/projects",
        "Runner registration: glrt-{s}".replace("glrt-{s}", "{s}"),
    ],
)
many(
    "slack_token",
    lambda: R.choice(["xoxb-", "xoxp-", "xoxa-"]) + "-".join(rnd(DIG, 12) for _ in range(2)) + "-" + rnd(ALNUM, 24),
    [
        "SLACK_BOT_TOKEN={s}",
        "The bot token is {s}",
        'slack = WebClient(token="{s}")',
        "Post alerts with {s} to #ops",
    ],
)
many(
    "slack_webhook",
    lambda: "https://hooks.slack.com/services/T" + rnd(UP + DIG, 10) + "/B" + rnd(UP + DIG, 10) + "/" + rnd(ALNUM, 24),
    [
        "Alerts go to {s}",
        "SLACK_WEBHOOK_URL={s}",
    ],
)
many(
    "discord_token",
    lambda: R.choice("MNO") + rnd(URLSAFE, 25) + "." + rnd(URLSAFE, 6) + "." + rnd(URLSAFE, 38),
    [
        "DISCORD_BOT_TOKEN={s}",
        "client.run('{s}')",
    ],
)
many(
    "discord_webhook",
    lambda: "https://discord.com/api/webhooks/" + rnd(DIG, 18) + "/" + rnd(URLSAFE, 68),
    [
        "Send build results to {s}",
    ],
)
many(
    "stripe_key",
    lambda: R.choice(["sk_live_", "rk_live_", "sk_test_"]) + rnd(ALNUM, 24),
    [
        "STRIPE_SECRET_KEY={s}",
        'stripe.api_key = "{s}"',
        "The live key {s} must never be in the repo",
        "Billing uses {s} for refunds",
        "restricted key for reporting: {s}",
    ],
)
many(
    "stripe_webhook_secret",
    lambda: "whsec_" + rnd(ALNUM, 32),
    [
        "STRIPE_WEBHOOK_SECRET={s}",
        "endpoint secret {s}",
    ],
)
many(
    "openai_key",
    lambda: "sk-proj-" + rnd(URLSAFE, 74) + "T3BlbkFJ" + rnd(URLSAFE, 74),
    [
        "OPENAI_API_KEY={s}",
        'client = OpenAI(api_key="{s}")',
        "here is the key {s} for the eval run",
    ],
)
many(
    "openai_key",
    lambda: "sk-" + rnd(ALNUM, 20) + "T3BlbkFJ" + rnd(ALNUM, 20),
    [
        "openai.api_key = '{s}'",
        "legacy key {s}",
    ],
)
many(
    "anthropic_key",
    lambda: "sk-ant-api03-" + rnd(URLSAFE, 93) + "AA",
    [
        "ANTHROPIC_API_KEY={s}",
        'anthropic.Anthropic(api_key="{s}")',
        "The Claude key for the eval harness is {s}",
    ],
)
many(
    "huggingface_token",
    lambda: "hf_" + rnd(UP + LOW, 34),
    ["HF_TOKEN={s}", "huggingface-cli login --token {s}"],
)
many(
    "npm_token",
    lambda: "npm_" + rnd(ALNUM, 36),
    ["//registry.npmjs.org/:_authToken={s}", "NPM publish token {s}"],
)
many(
    "pypi_token",
    lambda: "pypi-AgEIcHlwaS5vcmc" + rnd(URLSAFE, 70),
    ["password = {s}", "twine upload -p {s} dist/*"],
)
many(
    "sendgrid_key",
    lambda: "SG." + rnd(URLSAFE, 22) + "." + rnd(URLSAFE, 43),
    ["SENDGRID_API_KEY={s}", "mail key {s}"],
)
many("twilio_key", lambda: "SK" + rnd(HEX, 32), ["Twilio API key SID {s} with its secret in the vault"])
many("mailgun_key", lambda: "key-" + rnd(HEX + "ghijklmnopqrstuvwxyz", 32), ["MAILGUN_API_KEY={s}"])
many("telegram_bot_token", lambda: rnd(DIG, 10) + ":AA" + rnd(URLSAFE, 33), ['bot = telebot.TeleBot("{s}")'])
many(
    "bearer_token",
    lambda: rnd(URLSAFE, 40),
    [
        "Authorization: Bearer {s}",
        'curl -H "Authorization: Bearer {s}" https://api.example.com/v1/users',
        "send the header bearer {s} with each call",
        "headers = {{'Authorization': 'Bearer {s}'}}",
    ],
)
many(
    "basic_auth",
    lambda: base64.b64encode(f"admin:{rnd(ALNUM, 14)}".encode()).decode(),
    [
        "Authorization: Basic {s}",
        "-H 'authorization: basic {s}'",
    ],
)


def jwt() -> str:
    header = b64url({"alg": "HS256", "typ": "JWT"})
    payload = b64url({"sub": rnd(DIG, 8), "name": "Ada Lovelace", "iat": 1716239022, "exp": 1716242622})
    return f"{header}.{payload}.{rnd(URLSAFE, 43)}"


many(
    "jwt",
    jwt,
    [
        "the session cookie was {s}",
        "id_token={s}",
        "Decoded this JWT: {s}",
        "localStorage.setItem('token', '{s}')",
        "{s}",
    ],
)
many(
    "private_key",
    lambda: pem(
        R.choice(
            [
                "RSA PRIVATE KEY",
                "EC PRIVATE KEY",
                "OPENSSH PRIVATE KEY",
                "PRIVATE KEY",
                "ENCRYPTED PRIVATE KEY",
            ]
        )
    ),
    [
        "Here is the deploy key:\n{s}\nAdd it to ~/.ssh/id_deploy.",
        "{s}",
        "```\n{s}\n```",
        "server.key:\n{s}",
        "PGP: " + "{s}",
    ],
)
many(
    "password",
    lambda: rnd(ALNUM, 6) + R.choice("!@#$%&*") + rnd(DIG, 3),
    [
        "password = '{s}'",
        "password: {s}",
        '{{"username": "admin", "password": "{s}"}}',
        "my password is {s}",
        "passwd={s}",
        "The wifi password is {s}",
        'db_password := "{s}"',
        "login with user root and password={s}",
        "PASSWORD: {s}",
        "mysql -u root --password={s} shop",
    ],
)
many(
    "credential",
    lambda: rnd(ALNUM, 32),
    [
        "api_key: {s}",
        'client_secret = "{s}"',
        "secret_key => '{s}'",
        '"access_token": "{s}"',
    ],
)
many(
    "connection_string",
    lambda: rnd(ALNUM, 16),
    [
        "DATABASE_URL=postgres://app:{s}@db.internal:5432/app",
        "connect to postgresql://analytics:{s}@10.0.3.7/warehouse",
        "mongodb+srv://admin:{s}@cluster0.ab1cd.mongodb.net/prod?retryWrites=true",
        "REDIS_URL=redis://default:{s}@redis-12345.c1.us-east-1-2.ec2.cloud.redislabs.com:12345",
        "amqp://guest:{s}@rabbit:5672/",
        "mysql://root:{s}@localhost:3306/shop",
        "Server=tcp:sql1.database.windows.net,1433;Database=crm;User ID=crm;Password={s};Encrypt=true;",
        "The broker URL is amqps://worker:{s}@mq.example.com/vhost",
    ],
)
many(
    "env_secret",
    lambda: rnd(ALNUM, 50),
    [
        "SECRET_KEY={s}",
        'SESSION_SECRET="{s}"',
        "JWT_SIGNING_KEY={s}",
        "export APP_ENCRYPTION_KEY='{s}'",
        "NEXTAUTH_SECRET={s}",
        "DJANGO_SECRET_KEY={s}",
        "COOKIE_SECRET={s}",
        "INTERNAL_SERVICE_TOKEN={s}",
        "WEBHOOK_SIGNING={s}",
        "DATADOG_APP_KEY={s}",
    ],
)

# --- unlabelled pairs and tables, from the vendors' documented layouts ---------------------------------------
# The secret follows the id it belongs to, or sits in a column whose header names it; nothing says "secret=".


def pairs(type_: str, make_id, make_secret, contexts: list[str]) -> None:
    """Each context holds an id {i} and its secret {s}; the secret must be found (the id may be too)."""
    for ctx in contexts:
        i, sec = make_id(), make_secret()
        positives.append({"type": type_, "secret": sec, "text": ctx.format(i=i, s=sec)})


def aws_id() -> str:
    return R.choice(["AKIA", "AKIA", "ASIA"]) + rnd(UP + "234567", 16)


def aws_secret() -> str:
    return rnd(B64, 40)


pairs(
    "aws_secret_key",
    aws_id,
    aws_secret,
    [
        # the console's "Download .csv file" for a new access key
        "Access key ID,Secret access key\n{i},{s}\n",
        # IAM "Create user" credentials file
        "User name,Password,Access key ID,Secret access key,Console login link\n"
        "ci-bot,,{i},{s},https://123456789012.signin.aws.amazon.com/console\n",
        "Access key ID\tSecret access key\n{i}\t{s}",
        "| Access key ID | Secret access key |\n|---|---|\n| {i} | {s} |",
        "here are the new keys: {i},{s}",
        "{i}:{s}",
        "creds for the backup job {i} {s} (rotate after the migration)",
        'aws configure set aws_access_key_id {i} && aws configure set aws_secret_access_key "{s}"',
        "Access key ID: {i}\nSecret access key: {s}",
        '{{"AccessKeyId": "{i}", "SecretAccessKey": "{s}", "Status": "Active"}}',
    ],
)
many(
    "aws_secret_key",
    aws_secret,
    [
        "Secret access key\n{s}\n",
        "User name,Secret access key\ndeploy-bot,{s}\n",
        "Secret access key;Status\n{s};Active\n",
    ],
)
pairs(
    "password",
    lambda: R.choice(["ci-bot", "ada", "backup"]),
    lambda: rnd(ALNUM, 10) + R.choice("#!%&") + rnd(DIG, 2),
    [
        "User name,Password,Access key ID,Secret access key,Console login link\n{i},{s},,,https://x.signin.aws.amazon.com/console",
        "username;password\n{i};{s}\n",
        "| user | password |\n|---|---|\n| {i} | {s} |",
    ],
)


def gcp_sa(key_id: str, key: str) -> str:
    return (
        '{{\n  "type": "service_account",\n  "project_id": "acme-prod-4821",\n'
        f'  "private_key_id": "{key_id}",\n'
        f'  "private_key": "{key}",\n'
        '  "client_email": "deployer@acme-prod-4821.iam.gserviceaccount.com",\n'
        '  "client_id": "104857392018273645102",\n'
        '  "auth_uri": "https://accounts.google.com/o/oauth2/auth",\n'
        '  "token_uri": "https://oauth2.googleapis.com/token"\n}}'
    )


for _ in range(3):
    kid = rnd(HEX, 40)
    pem_escaped = pem("PRIVATE KEY", 6).replace("\n", "\\n") + "\\n"
    text = gcp_sa(kid, pem_escaped).replace("{{", "{").replace("}}", "}")
    positives.append({"type": "gcp_private_key_id", "secret": kid, "text": text})
    positives.append({"type": "private_key", "secret": pem_escaped.split("\\n")[2], "text": text})
many(
    "gcp_private_key_id",
    lambda: rnd(HEX, 40),
    ["private_key_id: {s}", "GCP key file: private_key_id = '{s}'"],
)
AZ_B64 = ALNUM + "+/"
pairs(
    "connection_string",
    lambda: R.choice(["acme-bus", "orders-prod", "telemetry-eu"]),
    lambda: rnd(AZ_B64, 43) + "=",
    [
        "Endpoint=sb://{i}.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={s}",
        "Endpoint=sb://{i}.servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey={s};EntityPath=orders",
        "HostName={i}.azure-devices.net;DeviceId=sensor-17;SharedAccessKey={s}",
        "Endpoint=https://{i}.service.signalr.net;AccessKey={s};Version=1.0;",
        "Endpoint=https://{i}.azconfig.io;Id=x4Kd-l9-s0:Qm3pZ8y1rT;Secret={s}",
        "{i}.redis.cache.windows.net:6380,password={s},ssl=True,abortConnect=False",
        "Server=tcp:{i}.database.windows.net,1433;Initial Catalog=app;User ID=app;Password={s};Encrypt=True;",
    ],
)
pairs(
    "azure_storage_key",
    lambda: R.choice(["acmestorage", "logsprodeu", "backups01"]),
    lambda: rnd(AZ_B64, 86) + "==",
    [
        "DefaultEndpointsProtocol=https;AccountName={i};AccountKey={s};EndpointSuffix=core.windows.net",
        "AccountEndpoint=https://{i}.documents.azure.com:443/;AccountKey={s};",
    ],
)
pairs(
    "credential",
    lambda: R.choice(["acmestorage", "logsprodeu"]),
    lambda: rnd(AZ_B64, 86) + "==",
    ["Storage account,key1\n{i},{s}\n", "Storage account name\tPrimary key\n{i}\t{s}"],
)
pairs(
    "stripe_key",
    lambda: "pk_live_" + rnd(ALNUM, 24),
    lambda: R.choice(["sk_live_", "rk_live_", "sk_test_"]) + rnd(ALNUM, 24),
    [
        "Publishable key,Secret key\n{i},{s}\n",
        "STRIPE_PUBLISHABLE_KEY={i}\nSTRIPE_SECRET_KEY={s}",
        '{{"publishable": "{i}", "secret": "{s}"}}',
        "stripe keys: {i} / {s}",
    ],
)
pairs(
    "twilio_auth_token",
    lambda: "AC" + rnd(HEX, 32),
    lambda: rnd(HEX, 32),
    [
        "Account SID,Auth Token\n{i},{s}\n",
        "{i}:{s}",
        "twilio creds {i} {s}",
        "Account SID\t{i}\nAuth Token\t{s}",
        "curl -u {i}:{s} https://api.twilio.com/2010-04-01/Accounts.json",
    ],
)
pairs(
    "twilio_api_secret",
    lambda: "SK" + rnd(HEX, 32),
    lambda: rnd(ALNUM, 32),
    ["{i}:{s}", "API key SID,Secret\n{i},{s}\n", "new twilio api key {i} {s}"],
)

# --- near misses: must not be flagged -------------------------------------------------------------------------
near: list[str] = []
for _ in range(10):
    sha = rnd(HEX, 40)
    near.append(
        R.choice(
            [
                f"Fixed in commit {sha}, see the changelog.",
                f"git cherry-pick {sha}",
                f"GIT_SHA={sha}",
                f"Deployed revision {sha[:12]} to staging at 14:02.",
                f"The merge base is {sha}.",
            ]
        )
    )
for _ in range(8):
    h = rnd(HEX, 64)
    near.append(
        R.choice(
            [
                f"sha256sum: {h}  model.safetensors",
                f"IMAGE_DIGEST=sha256:{h}",
                f"The checksum of the release tarball is {h}.",
                f"docker pull ghcr.io/acme/api@sha256:{h}",
            ]
        )
    )
for _ in range(8):
    u = "-".join(rnd(HEX, n) for n in (8, 4, 4, 4, 12))
    near.append(
        R.choice(
            [
                f"Request id {u} failed with a 502.",
                f"REQUEST_ID={u}",
                f"The tenant uuid is {u}",
                f"user_id: {u}",
            ]
        )
    )
for _ in range(5):
    png = base64.b64encode(bytes(R.randrange(256) for _ in range(60))).decode()
    near.append(f'<img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA{png}" alt="logo">')
near += [
    "I forgot my password again, can you help me reset it?",
    "password reset link sent",
    "The password must be at least 12 characters and contain a number.",
    "Use a password manager like 1Password or Bitwarden.",
    "my password is too weak according to the signup form",
    "The password is stored hashed with bcrypt, never in plain text.",
    "Password: see the team vault",
    "Enter your password below and press continue.",
    "Change the default password after the first login.",
    "The API key is in the vault under payments/stripe.",
    "Rotate the API key every 90 days.",
    "We should never commit secrets to the repository.",
    "Tokens are counted with the model's own tokenizer; the limit is 300 tokens.",
    "Her secret is that she hates coffee.",
    "The secret to good bread is patience.",
    "Our token budget is 2000 per recall.",
    "Bearer of bad news: the build is red again.",
    "the token economy of the game rewards daily logins",
    "I reset the password for Caroline's laptop yesterday.",
    "Passwords should be rotated; secrets belong in a manager, not in chat.",
    "my pin is broken, the hinge snapped",
    "The key is to stay consistent with the tests.",
    "password_min_length: 12",
    "password: ********",
    'password = "<your-password>"',
    "api_key: ${API_KEY}",
    "SECRET_KEY=${SECRET_KEY}",
    "API_KEY=changeme",
    "token: null",
    "password=None",
    "client_secret: {{ .Values.clientSecret }}",
]
near += [
    "v1.2.3 fixed the crash on startup",
    "We run Python 3.11.4 with numpy==1.26.4",
    "torch==2.13.0+cpu is pinned in pyproject.toml",
    "Upgrade node to 20.11.1 and npm to 10.2.4.",
    "release 2024.05.1-rc2 is out",
    "The image tag is api:3.4.1-alpine3.19",
    "Chrome 124.0.6367.91 broke the layout",
    "Build number 20240517.3 passed all checks.",
]
near += [
    "DEBUG=true",
    "PORT=8080",
    "NODE_ENV=production",
    "DATABASE_HOST=db.internal",
    "LOG_LEVEL=info",
    "AWS_REGION=eu-west-1",
    "PASSWORD_MIN_LENGTH=12",
    "JWT_ALGORITHM=HS256",
    "TOKEN_TTL=3600",
    "SESSION_COOKIE_NAME=sid",
    "OAUTH_CLIENT_ID=1234567890-abc.apps.googleusercontent.com",
    "S3_BUCKET_NAME=acme-prod-uploads-eu",
]
near += [
    'password = os.environ["DB_PASSWORD"]',
    "def login(username: str, password: str) -> Session:",
    "password: str = Field(..., min_length=12)",
    "if password == confirm_password:",
    'token = request.headers.get("Authorization")',
    "api_key = settings.api_key",
    "const password = await prompt('Password: ')",
    "secret = getpass()",
    "PASSWORD_HASHERS = ['django.contrib.auth.hashers.Argon2PasswordHasher']",
    "auth_token = generate_token(user)",
]
near += [
    "https://github.com/acme/memgraph/pull/42",
    "postgres://localhost:5432/app",
    "git@github.com:acme/memgraph.git",
    "https://ada@example.com/projects",
    "http://localhost:8080/api?page=2&sort=asc",
    "mailto:ada@example.com",
    "Connect with psql -h db.internal -U app app",
    "redis://localhost:6379/0",
]
near += [
    "Order #A1B2C3D4 shipped on Tuesday.",
    "The pod api-7d9f8b6c5-x2k4z is crash looping.",
    "ISBN 978-3-16-148410-0",
    "Call me at +1 555 123 4567 after 6pm.",
    "Set the color to #ff8800 for warnings.",
    "MAC address 00:1A:2B:3C:4D:5E",
    "IPv6 fe80::1ff:fe23:4567:890a is link-local",
    "sk-learn is a typo, the package is scikit-learn",
    "The AKIA prefix marks long-term AWS access keys.",
    "eyJ is just base64 for the start of a JSON object.",
    "xoxo, see you at the support group!",
    "The sk_live prefix means a production Stripe key.",
    "AbstractSingletonProxyFactoryBean is a real Spring class.",
    "Caroline went to a LGBTQ support group yesterday and it was so powerful.",
    "Melanie painted a sunrise over the lake in 2022.",
    "User is building a SaaS product with FastAPI and Stripe integration.",
    "Discussed database migration from MySQL to PostgreSQL.",
    "User reported issue with Alembic autogenerate on enums.",
    "The model all-MiniLM-L6-v2 has 384 dimensions.",
    "Meeting id 845 2291 0034, passcode in the invite.",
    "The ghp prefix is for GitHub personal tokens.",
    "Use Bearer authentication for the internal API.",
    "I prefer tabs over spaces, always.",
    "Run `pytest -x -q tests/ingest` before pushing.",
    "The file lives at src/memgraph/ingest/secrets.py",
]
# near misses for the pair and table rules: ids without secrets, hashes and counts in secret-looking places
for _ in range(3):
    near.append(f"Account SID {'AC' + rnd(HEX, 32)}, messaging number +1 555 0134")
    near.append(f"Twilio account {'AC' + rnd(HEX, 32)} was upgraded on 2024-03-02.")
near += [
    "Access key ID,Status,Created\n(rotated),Inactive,2024-01-05\n",
    "Secret access key\n(shown only once at creation)\n",
    "| Secret | Where |\n|---|---|\n| ******** | team vault |\n| <redacted> | 1Password |",
    "Token,Status\nActive,Enabled\nRevoked,Disabled\n",
    "Input tokens,Output tokens\n1200,300\n4800,900\n",
    "password,notes\n(see vault),rotate monthly\n",
    "Password policy,Minimum length\nstrict,12\n",
    "API key,Owner\n${API_KEY},platform team\n",
    "Endpoint=sb://acme-bus.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey",
    "DefaultEndpointsProtocol=https;AccountName=acmestorage;EndpointSuffix=core.windows.net",
    '"client_id": "104857392018273645102", "client_email": "deployer@acme-prod-4821.iam.gserviceaccount.com"',
    '"private_key_id": "<KEY_ID>"',
    f"Publishable key {'pk_live_' + rnd(ALNUM, 24)} goes in the frontend bundle.",
    f"integrity sha512-{rnd(B64, 86)}==",
    "commit,author\n" + rnd(HEX, 40) + ",ada\n" + rnd(HEX, 40) + ",bob\n",
    "id,checksum\n" + "-".join(rnd(HEX, n) for n in (8, 4, 4, 4, 12)) + "," + rnd(HEX, 64) + "\n",
    "name, token budget, top_k\nrecall, 2000, 5\n",
    "key1,key2\nred,blue\n",
    # a sentence that names a secret after a colon, in a runbook
    "To rotate the Stripe webhook secret: create the new secret in the dashboard, update Vault, then redeploy.",
    "The deploy token: rotate it every 90 days and never paste it in chat.",
    "Client secret: ask the platform team for access, it lives in the shared vault.",
]



# payment cards, their security codes, PINs and passcodes, US social security numbers (appended last: the entries
# above keep their random draws)
def luhn_complete(prefix: str, length: int) -> str:
    body = prefix + "".join(R.choice(DIG) for _ in range(length - len(prefix) - 1))
    total = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch) * (1 if i % 2 else 2)
        total += d - 9 if d > 9 else d
    return body + str((10 - total % 10) % 10)


def grouped(number: str, sep: str) -> str:
    if len(number) == 15:  # Amex: 4-6-5
        return sep.join((number[:4], number[4:10], number[10:]))
    return sep.join(number[i:i + 4] for i in range(0, len(number), 4))


CARD_CONTEXTS = [
    "My card number is {s}, expiry 04/29.",
    "card: {s}",
    "Use the company Visa {s} for the hotel booking.",
    "pay with {s} if the other one declines",
    "Billing card on file ends ... actually it's {s}",
]
for prefix, length in (("4", 16), ("51", 16), ("2221", 16), ("37", 15), ("6011", 16)):
    number = luhn_complete(prefix, length)
    for ctx, sep in zip(CARD_CONTEXTS, ("", " ", "-", " ", ""), strict=True):
        add("payment_card", grouped(number, sep) if sep else number, ctx)
for ctx in ("The CVV is {s}.", "cvv {s}", "card security code: {s}", "CVC2 = {s}"):
    add("card_security_code", "".join(R.choice("123456789") for _ in range(3)), ctx)
for ctx in (
    "My bank PIN is {s}.",
    "PIN: {s}",
    "the pin for my debit card is {s}",
    "phone passcode is {s}",
    "The new PIN is now {s}, don't forget it.",
    "unlock code {s} for the tablet",
):
    add("pin", "".join(R.choice(DIG) for _ in range(R.choice((4, 6)))), ctx)
for ctx in ("My SSN is {s}.", "social security number: {s}", "SSN {s} on the tax form"):
    add("national_id", f"{R.randrange(100, 900)}-{R.randrange(10, 100)}-{R.randrange(1000, 10000)}", ctx)
near += [
    "Order 4111111111111112 shipped on Monday.",  # a card's shape and prefix, no valid check digit
    "The epoch timestamp 1700000000000 is in milliseconds.",
    "Call 4155552671 after six.",
    "I scored 4111 1111 points on the arcade machine.",
    "pin 350 on the map is the trailhead",
    "my pin is broken, the hinge snapped",
    "Pin 2 of 12 holds the shelf.",
    "Ask the bank to reset your PIN if you forget it.",
    "The gate code is 5839#; the key safe code is 2580.",  # a household's shared code: kept on purpose
    "Meeting id 845 2291 0034, passcode in the invite.",
    "Tracking number 9400 1000 0000 0000 0000 00 arrived.",
    "The SSN field is optional on the form.",
    "Dress code is smart casual; the postcode is BS1 4DJ.",
]

corpus = {"secrets": positives, "near_misses": [{"text": t} for t in near]}
out = Path(__file__).with_name("secrets_corpus.json")
out.write_text(json.dumps(corpus, indent=1, ensure_ascii=False) + "\n")
print(f"{len(positives)} secrets, {len(near)} near misses -> {out}")
