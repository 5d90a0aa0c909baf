// check3dtiles.mjs ZIP — reads an exported 3D Tiles zip with readers this
// module did not write: @loaders.gl/zip opens the archive, @loaders.gl/3d-tiles
// parses tileset.json and every tile content, and the Khronos glTF
// validator checks every .glb. Prints a JSON summary; exits 1 on any error.
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
const tilesetBytes = files['tileset.json'];
if (!tilesetBytes) {
  console.log(JSON.stringify({ errors: ['no tileset.json in the zip'] }));
  process.exit(1);
}
const tileset = await parse(tilesetBytes, Tiles3DLoader, { '3d-tiles': { isTileset: true } }, { url: 'http://localhost/tileset.json' });

let tiles = 0, contents = 0, vertices = 0, gltfErrors = 0, gltfWarnings = 0;
const walk = async (tile) => {
  tiles++;
  const uri = tile.content && (tile.content.uri || tile.contentUrl);
  if (uri) {
    const name = tile.content.uri ?? new URL(uri).pathname.slice(1);
    const data = files[name];
    if (!data) {
      errors.push(`content ${name} is not in the zip`);
    } else {
      contents++;
      try {
        const content = await parse(data, Tiles3DLoader, { '3d-tiles': { loadGLTF: true } });
        const prim = content?.gltf?.meshes?.[0]?.primitives?.[0];
        const pos = prim?.attributes?.POSITION;
        if (!pos) errors.push(`${name}: loaders.gl found no POSITION`);
        else vertices += pos.value.length / 3;
      } catch (e) {
        errors.push(`${name}: loaders.gl: ${e.message}`);
      }
      const report = await validator.validateBytes(new Uint8Array(data), { uri: name, maxIssues: 20 });
      gltfErrors += report.issues.numErrors;
      gltfWarnings += report.issues.numWarnings;
      for (const m of report.issues.messages) {
        if (m.severity === 0) errors.push(`${name}: ${m.code} ${m.message} at ${m.pointer ?? ''}`);
      }
    }
  }
  for (const child of tile.children ?? []) await walk(child);
};
await walk(tileset.root);
console.log(JSON.stringify({
  version: tileset.asset?.version, type: tileset.type, lodMetricType: tileset.lodMetricType,
  tiles, contents, vertices, gltfErrors, gltfWarnings, errors: errors.slice(0, 20),
}));
process.exit(errors.length ? 1 : 0);
