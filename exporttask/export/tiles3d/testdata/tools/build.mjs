// build.mjs STEPS.json — runs 3d-tiles-tools commands in one Node.js process
// (each command line start loads the whole tool set, seconds on a busy
// machine). STEPS.json is an array of steps, run in order, each the
// arguments of the 3d-tiles-tools command of the same name:
//   {"cmd": "glbToB3dm" | "glbToI3dm" | "b3dmToGlb", "input": F, "output": F}
//   {"cmd": "createTilesetJson", "input": DIR, "output": F, "position": [lon, lat, h]}
//   {"cmd": "upgrade", "input": F, "output": DIR, "targetVersion": "1.0"}
//   {"cmd": "merge", "inputs": [DIR, ...], "output": DIR}
// The package comes from the node_modules folder beside this script
// (npm ci --prefix exporttask/export/tiles3d/testdata/tools --ignore-scripts);
// see tiles3d's tools_test.go. Exits 1 on the first failing step.
import { createRequire } from 'node:module';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const req = createRequire(path.join(here, 'package.json'));
const { ToolsMain } = req(path.join(here, 'node_modules/3d-tiles-tools/build/src/cli/ToolsMain.js'));

const steps = JSON.parse(readFileSync(process.argv[2], 'utf8'));
for (const s of steps) {
  // The file commands write into an existing directory.
  if (['glbToB3dm', 'glbToI3dm', 'b3dmToGlb', 'createTilesetJson'].includes(s.cmd)) mkdirSync(path.dirname(s.output), { recursive: true });
  switch (s.cmd) {
    case 'glbToB3dm':
      await ToolsMain.glbToB3dm(s.input, s.output, true);
      break;
    case 'glbToI3dm':
      await ToolsMain.glbToI3dm(s.input, s.output, true);
      break;
    case 'b3dmToGlb':
      await ToolsMain.b3dmToGlb(s.input, s.output, true);
      break;
    case 'createTilesetJson':
      await ToolsMain.createTilesetJson(s.input, s.output, s.position, undefined, true);
      break;
    case 'upgrade':
      await ToolsMain.upgrade(s.input, s.output, true, s.targetVersion ?? '1.0', {});
      break;
    case 'merge':
      await ToolsMain.merge(s.inputs, s.output, true);
      break;
    default:
      console.error(`unknown step ${JSON.stringify(s)}`);
      process.exit(1);
  }
}
