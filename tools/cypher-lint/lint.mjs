#!/usr/bin/env node
// Lint every .cypher file with Neo4j's own Cypher parser and semantic analysis
// (@neo4j-cypher/language-support, lintCypherQuery), the proof that memgraph's statements are valid Neo4j 5.
//
//   node lint.mjs [PATH ...]      (default: the statements the stores run, memgraph/cypher/, and the
//                                 exploration queries, cypher/browser/)
//
// A line `// include: NAME` is replaced by the statement lines of the fragment `include/NAME.cypher` (found in
// the nearest enclosing folder that has an include/ folder; its own includes expanded, its `//` lines left out,
// the include line's indentation put before each line; `// include: NAME(v)` turns the fragment's node `x.`
// into `v.`) before linting: the same rule as the store's loader (memgraph/store/dialect.py, expand_includes),
// so the lint sees exactly the text the store runs. Fragments themselves (files under include/) are linted only as part of the statements that
// include them. Line numbers in messages are those of the expanded text.
//
// Each file may hold several statements separated by `;` (the parser splits them). The database schema given
// to the linter is memgraph's graph model, so a misspelt label or relationship type fails, plus Neo4j 5's
// function and procedure catalogue (as bundled by the package), so a misspelt or mis-called procedure such as
// db.index.vector.queryNodes fails too. Parameters must be declared in the file's `// Parameters:` header.
// Files under a `falkordb/` folder are FalkorDB overrides: they are parsed with the same Neo4j grammar, with
// FalkorDB's procedures and functions (db.idx.*, vecf32, vec.cosineDistance, indegree) added to the catalogue.
//
// A statement that is FalkorDB-only syntax (FalkorDB's vector index options are not Neo4j's) is preceded by
// `// cypher-lint: falkordb-only <why>`: its diagnostics are printed as notes and do not fail.
//
// Prints `file:line:column: error|warning: message` and exits 1 when any error was found (warnings, such as
// the deprecation of `CALL { ... }` without a scope clause, which FalkorDB 4.x still needs, do not fail).

import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
// The ESM build of this package has extension-less imports that Node cannot resolve; the CJS build works.
const { lintCypherQuery, testData } = require('@neo4j-cypher/language-support');

const here = dirname(fileURLToPath(import.meta.url));
const VERSION = 'CYPHER 5';

// memgraph's graph model (memgraph/cypher/README.md).
const LABELS = ['Memory', 'MemoryVector', 'Tag', 'Cluster', 'Gap', 'JobRun', 'Meta', 'User'];
const REL_TYPES = [
  'HasTag',
  'InCluster',
  'RelatesTo',
  'Supersedes',
  'Contradicts',
  'DerivedFrom',
  'HasEmbedding',
];

const neo4jFunctions = testData.mockSchema.functions[VERSION];
const neo4jProcedures = testData.mockSchema.procedures[VERSION];

function arg(name, type) {
  return { name, type, description: name, isDeprecated: false };
}

function procedure(name, args, returns, mode, description) {
  const sig = `${name}(${args.map((a) => `${a.name} :: ${a.type}`).join(', ')})`;
  const ret = returns.length ? ` :: (${returns.map((r) => `${r.name} :: ${r.type}`).join(', ')})` : '';
  return {
    name,
    description,
    mode,
    worksOnSystem: false,
    signature: sig + ret,
    argumentDescription: args,
    returnDescription: returns,
    admin: false,
    option: { deprecated: false },
  };
}

function fn(name, args, returns, description) {
  return {
    name,
    category: 'FalkorDB',
    description,
    isBuiltIn: false,
    argumentDescription: args,
    returnDescription: returns,
    signature: `${name}(${args.map((a) => `${a.name} :: ${a.type}`).join(', ')}) :: ${returns}`,
    aggregating: false,
    isDeprecated: false,
  };
}

// FalkorDB 4.x procedures and functions used by the falkordb/ overrides.
const FALKORDB_PROCEDURES = {
  'db.idx.vector.queryNodes': procedure(
    'db.idx.vector.queryNodes',
    [arg('label', 'STRING'), arg('attribute', 'STRING'), arg('k', 'INTEGER'), arg('query', 'ANY')],
    [arg('node', 'NODE'), arg('score', 'FLOAT')],
    'READ',
    'FalkorDB HNSW kNN; score is the distance (cosine: 1 - cos).',
  ),
  'db.idx.fulltext.queryNodes': procedure(
    'db.idx.fulltext.queryNodes',
    [arg('label', 'STRING'), arg('query', 'STRING')],
    [arg('node', 'NODE'), arg('score', 'FLOAT')],
    'READ',
    'FalkorDB (RediSearch) full-text query.',
  ),
  'db.idx.fulltext.createNodeIndex': procedure(
    'db.idx.fulltext.createNodeIndex',
    [arg('options', 'ANY'), arg('field', 'ANY')],
    [],
    'SCHEMA',
    'FalkorDB full-text index creation.',
  ),
};
const FALKORDB_FUNCTIONS = {
  vecf32: fn('vecf32', [arg('list', 'LIST<FLOAT>')], 'ANY', 'FalkorDB float32 vector.'),
  indegree: fn('indegree', [arg('node', 'NODE')], 'INTEGER', 'FalkorDB: number of incoming relationships.'),
  'vec.cosineDistance': fn(
    'vec.cosineDistance',
    [arg('a', 'ANY'), arg('b', 'ANY')],
    'FLOAT',
    'FalkorDB cosine distance (1 - cos).',
  ),
};

function schemaFor(file, parameters) {
  const falkor = file.split(sep).includes('falkordb');
  return {
    labels: LABELS,
    relationshipTypes: REL_TYPES,
    parameters,
    functions: { [VERSION]: falkor ? { ...neo4jFunctions, ...FALKORDB_FUNCTIONS } : neo4jFunctions },
    procedures: { [VERSION]: falkor ? { ...neo4jProcedures, ...FALKORDB_PROCEDURES } : neo4jProcedures },
    defaultLanguage: VERSION,
  };
}

/** Parameters a file declares in its header: `// Parameters: $a, $b` (or `none`). */
function declaredParameters(text) {
  const params = {};
  let declared = false;
  for (const line of text.split('\n')) {
    const m = line.match(/^\s*\/\/\s*Parameters:(.*)$/);
    if (!m) continue;
    declared = true;
    for (const p of m[1].matchAll(/\$(\w+)/g)) params[p[1]] = null;
  }
  return { params, declared };
}

function cypherFiles(path) {
  const st = statSync(path);
  if (st.isFile()) return path.endsWith('.cypher') ? [path] : [];
  return readdirSync(path)
    .sort()
    .filter((name) => name !== 'include')
    .flatMap((name) => cypherFiles(join(path, name)));
}

/** The file's text with every `// include: NAME` line replaced by the fragment's statement lines. */
function expandIncludes(file, text) {
  return text.replace(/^([ \t]*)\/\/ include: (\w+)(?:\((\w+)\))?[ \t]*$/gm, (line, indent, name, node) => {
    for (let dir = dirname(file); ; dir = dirname(dir)) {
      const fragment = join(dir, 'include', `${name}.cypher`);
      if (existsSync(fragment)) {
        let body = expandIncludes(fragment, readFileSync(fragment, 'utf8'))
          .split('\n')
          .filter((l) => !l.trimStart().startsWith('//'))
          .join('\n')
          .replace(/\n+$/, '');
        if (node !== undefined) body = body.replace(/\bx\./g, `${node}.`);
        return body
          .split('\n')
          .map((l) => indent + l)
          .join('\n');
      }
      if (dirname(dir) === dir) throw new Error(`${file}: no include/${name}.cypher above it`);
    }
  });
}

/** Line ranges (1-based, inclusive) of statements marked `// cypher-lint: falkordb-only`. */
function exemptRanges(text) {
  const lines = text.split('\n');
  const ranges = [];
  lines.forEach((line, i) => {
    if (!/^\s*\/\/\s*cypher-lint:\s*falkordb-only\b/.test(line)) return;
    let end = i;
    while (end < lines.length - 1 && !/;\s*$/.test(lines[end])) end += 1;
    ranges.push([i + 1, end + 1]);
  });
  return ranges;
}

function lintFile(file) {
  const text = expandIncludes(file, readFileSync(file, 'utf8'));
  const out = [];
  const exempt = exemptRanges(text);
  const { params, declared } = declaredParameters(text);
  if (!declared) {
    out.push({ line: 1, column: 1, severity: 'error', message: 'missing `// Parameters:` header line' });
  }
  if (!text.trimStart().startsWith('//')) {
    out.push({ line: 1, column: 1, severity: 'error', message: 'a statement file starts with a // comment saying what it does' });
  }
  const diagnostics = lintCypherQuery(text, schemaFor(file, params));
  for (const d of diagnostics) {
    const undeclaredModel = /is not present in the database/.test(d.message);
    // Labels/types outside memgraph's model come back as warnings; here they are typos, so errors.
    let severity = d.severity === 1 || undeclaredModel ? 'error' : 'warning';
    const line = d.range.start.line + 1;
    if (exempt.some(([a, b]) => line >= a && line <= b)) severity = 'note';
    out.push({ line, column: d.range.start.character + 1, severity, message: d.message });
  }
  return out;
}

const args = process.argv.slice(2);
const roots = args.length
  ? args
  : [resolve(here, '..', '..', 'memgraph', 'cypher'), resolve(here, '..', '..', 'cypher', 'browser')];
let errors = 0;
let warnings = 0;
let files = 0;
for (const root of roots) {
  for (const file of cypherFiles(resolve(root))) {
    files += 1;
    for (const d of lintFile(file)) {
      const shown = relative(process.cwd(), file) || file;
      console.log(`${shown}:${d.line}:${d.column}: ${d.severity}: ${d.message.split('\n')[0]}`);
      if (d.severity === 'error') errors += 1;
      else if (d.severity === 'warning') warnings += 1;
    }
  }
}
console.log(`cypher-lint: ${files} file(s), ${errors} error(s), ${warnings} warning(s)`);
if (files === 0) {
  console.log('cypher-lint: no .cypher files found');
  process.exit(2);
}
process.exit(errors ? 1 : 0);
