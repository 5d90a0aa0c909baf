// Reads a METADATA artifact with stac-js, a STAC reader this module did
// not write, and prints what it sees as one JSON object on stdout, for
// exporttask/export's stac_test.go to compare with the export. Usage:
//
//   node checkstac.mjs metadata.json
//
// STAC_NODE_MODULES may name the node_modules directory holding stac-js
// (by default the one beside this script).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const modules = process.env.STAC_NODE_MODULES || join(dirname(fileURLToPath(import.meta.url)), 'node_modules');
const require = createRequire(join(modules, 'noop.js'));
const stac = await import(pathToFileURL(require.resolve('stac-js')).href);
const create = stac.default;

const report = { errors: [] };
try {
  const json = JSON.parse(readFileSync(process.argv[2], 'utf8'));
  const item = create(json, false);
  report.objectType = item.getObjectType();
  report.isItem = item.isItem;
  report.stacVersion = item.stac_version;
  report.id = item.id;
  report.bbox = item.getBoundingBox();
  const geojson = item.toGeoJSON();
  report.geometryType = geojson && geojson.geometry ? geojson.geometry.type : null;
  const dt = item.getDateTime();
  report.datetime = dt instanceof Date && !Number.isNaN(dt.getTime()) ? dt.toISOString() : null;
  report.epsg = item.getMetadata('proj:epsg');
  report.recordID = item.getMetadata('exporttask:recordID');
  report.projExtension = item.supportsExtension('https://stac-extensions.github.io/projection/v1.*/schema.json');
  report.fileExtension = item.supportsExtension('https://stac-extensions.github.io/file/v2.*/schema.json');
  const assets = item.getAssets();
  report.assets = assets.length;
  report.roles = {};
  for (const role of ['data', 'thumbnail', 'metadata']) {
    report.roles[role] = item.getAssetsWithRoles([role]).map((a) => a.getKey()).sort();
  }
  report.thumbnails = item.getThumbnails(false).length;
  report.files = {};
  for (const a of assets) {
    report.files[a.getKey()] = {
      href: a.href,
      type: a.type,
      size: a.getMetadata('file:size'),
      checksum: a.getMetadata('file:checksum'),
    };
  }
  // A second reading through stac-js's migration to the latest STAC,
  // as a STAC browser does, must keep the assets.
  report.migratedAssets = create(json).getAssets().length;
} catch (e) {
  report.errors.push(String(e && e.stack ? e.stack : e));
}
process.stdout.write(JSON.stringify(report) + '\n');
process.exit(report.errors.length ? 1 : 0);
