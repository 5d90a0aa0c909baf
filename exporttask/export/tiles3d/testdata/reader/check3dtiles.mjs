// check3dtiles.mjs ZIP — reads an exported 3D Tiles zip with readers this
// module did not write: @loaders.gl/zip opens the archive, @loaders.gl/3d-tiles
// parses tileset.json, every external tileset JSON it reaches and every tile
// content, and the Khronos glTF validator checks every glTF binary (a .glb,
// or the one inside a b3dm or an i3dm). The tree is walked from the JSON as
// stored (content or contents, uri or 3D Tiles 1.0's url), each URI resolved
// against the tileset JSON that names it. Prints a JSON summary (named lists
// every file the tileset JSON files name, themselves included; entries the
// zip's files); exits 1 on any error.
// The packages come from the node_modules folder named by the environment
// variable VIEWER_3DTILES_NODE_MODULES, or else from the one beside this
// script (npm ci --prefix exporttask/export/tiles3d/testdata/reader); see
// tiles3d's reader_test.go.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const base = process.env.VIEWER_3DTILES_NODE_MODULES || path.join(path.dirname(fileURLToPath(import.meta.url)), 'node_modules');
const req = createRequire(path.join(base, 'package.json'));
const imp = async (name) => {
  const m = await import(pathToFileURL(req.resolve(name)).href);
  return { ...(m.default ?? {}), ...m };
};

const { parse } = await imp('@loaders.gl/core');
const { ZipLoader } = await imp('@loaders.gl/zip');
const { Tiles3DLoader } = await imp('@loaders.gl/3d-tiles');
const validator = await imp('gltf-validator');

const zipBytes = readFileSync(process.argv[2]);
const files = await parse(zipBytes.buffer.slice(zipBytes.byteOffset, zipBytes.byteOffset + zipBytes.byteLength), ZipLoader);
const errors = [];
const named = new Set();
let version;
let tiles = 0, contents = 0, vertices = 0, gltfErrors = 0, gltfWarnings = 0;

// The glTF binary in a tile content, or null.
const glbOf = (data) => {
  const b = new Uint8Array(data);
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const magic = new TextDecoder().decode(b.subarray(0, 4));
  if (magic === 'glTF') return b;
  if (magic === 'b3dm' || magic === 'i3dm') {
    const header = magic === 'b3dm' ? 28 : 32;
    if (magic === 'i3dm' && dv.getUint32(28, true) !== 1) return null;
    let off = header;
    for (let i = 12; i < 28; i += 4) off += dv.getUint32(i, true);
    return b.subarray(off);
  }
  return null;
};

const walkTileset = async (name, depth) => {
  named.add(name);
  const bytes = files[name];
  if (!bytes) {
    errors.push(`tileset ${name} is not in the zip`);
    return;
  }
  if (depth > 16) {
    errors.push(`${name}: external tilesets nest too deep`);
    return;
  }
  let parsed;
  try {
    parsed = await parse(bytes, Tiles3DLoader, { '3d-tiles': { isTileset: true } }, { url: 'http://localhost/' + name });
  } catch (e) {
    errors.push(`${name}: loaders.gl: ${e.message}`);
    return;
  }
  if (depth === 0) version = parsed.asset?.version;
  const raw = JSON.parse(new TextDecoder().decode(bytes));
  const walk = async (tile) => {
    tiles++;
    const list = tile.contents ?? (tile.content ? [tile.content] : []);
    for (const c of list) {
      const uri = c.uri ?? c.url;
      const cname = decodeURIComponent(new URL(uri, 'http://localhost/' + name).pathname.slice(1));
      if (cname.toLowerCase().endsWith('.json')) {
        await walkTileset(cname, depth + 1);
        continue;
      }
      named.add(cname);
      const data = files[cname];
      if (!data) {
        errors.push(`content ${cname} is not in the zip`);
        continue;
      }
      contents++;
      try {
        const content = await parse(data, Tiles3DLoader, { '3d-tiles': { loadGLTF: true } });
        const prim = content?.gltf?.meshes?.[0]?.primitives?.[0];
        const pos = prim?.attributes?.POSITION ?? content?.attributes?.positions;
        if (!pos) errors.push(`${cname}: loaders.gl found no POSITION`);
        else vertices += (pos.value ?? pos).length / 3;
      } catch (e) {
        errors.push(`${cname}: loaders.gl: ${e.message}`);
      }
      const glb = glbOf(data);
      if (glb) {
        const report = await validator.validateBytes(new Uint8Array(glb), { uri: cname, maxIssues: 20 });
        gltfErrors += report.issues.numErrors;
        gltfWarnings += report.issues.numWarnings;
        for (const m of report.issues.messages) {
          if (m.severity === 0) errors.push(`${cname}: ${m.code} ${m.message} at ${m.pointer ?? ''}`);
        }
      }
    }
    for (const child of tile.children ?? []) await walk(child);
  };
  await walk(raw.root);
};

if (!files['tileset.json']) {
  console.log(JSON.stringify({ errors: ['no tileset.json in the zip'] }));
  process.exit(1);
}
await walkTileset('tileset.json', 0);
console.log(JSON.stringify({
  version, tiles, contents, vertices, gltfErrors, gltfWarnings,
  named: [...named].sort(), entries: Object.keys(files).filter((n) => !n.endsWith('/')).sort(),
  errors: errors.slice(0, 20),
}));
process.exit(errors.length ? 1 : 0);
