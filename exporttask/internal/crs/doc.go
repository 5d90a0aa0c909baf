// Package crs transforms coordinates between the coordinate reference
// systems of source files and WGS 84 longitude/latitude (EPSG:4326), in
// pure Go, matching PROJ (cs2cs EPSG:code EPSG:4326) to well under a
// millimetre.
//
// Get a CRS with [FromEPSG] or, from a GeoTIFF, [FromGeoKeys]; then
// [CRS.ToLonLat] and [CRS.FromLonLat] transform one point without
// allocating, [CRS.ToLonLatSlice] and [CRS.FromLonLatSlice] many, and
// [Footprint] a box with densified edges:
//
//	c, err := crs.FromEPSG(32636) // WGS 84 / UTM zone 36N
//	if err != nil { ... }
//	lon, lat, ok := c.ToLonLat(500000, 3500000)
//
// # Projections
//
//   - Transverse Mercator (EPSG method 9807, and UTM) by the extended
//     Krüger series of Poder and Engsager to the 6th order in the third
//     flattening, the algorithm of PROJ's default `+proj=tmerc` and
//     `+proj=utm` (not the Evenden/Snyder series of `+approx`);
//   - Lambert Conformal Conic with one (9801) or two (9802) standard
//     parallels, as PROJ's `+proj=lcc`;
//   - Popular Visualisation Pseudo Mercator (1024, EPSG:3857), spherical
//     formulas on the WGS 84 semi-major axis as PROJ's `+proj=webmerc`;
//   - geographic longitude/latitude in degrees.
//
// # Supported CRSs
//
// See [FromEPSG]; codes outside this list are an *[UnsupportedError].
//
//   - EPSG:4326 WGS 84; 4258 ETRS89, 4269 NAD83, 4267 NAD27, 4674 SIRGAS
//     2000, 4167 NZGD2000, 4171 RGF93 v1 (geographic);
//   - EPSG:3857 WGS 84 / Pseudo-Mercator;
//   - EPSG:32601–32660 and 32701–32760 WGS 84 / UTM zones 1N–60N, 1S–60S;
//   - EPSG:25828–25838 ETRS89 / UTM zones 28N–38N;
//   - EPSG:26903–26923 NAD83 / UTM zones 3N–23N;
//   - EPSG:26708–26720 NAD27 / UTM zones 8N–20N;
//   - EPSG:31965–31976 SIRGAS 2000 / UTM zones 11N–22N and 31977–31985
//     zones 17S–25S;
//   - EPSG:2039 Israel 1993 / Israeli TM Grid; EPSG:2193 NZGD2000 / New
//     Zealand Transverse Mercator 2000;
//   - EPSG:2154 RGF93 v1 / Lambert-93; EPSG:26943 NAD83 / California zone
//     3 (metres) and EPSG:2227 the same in US survey feet (LCC 2SP);
//     EPSG:24200 JAD69 / Jamaica National Grid (LCC 1SP).
//
// Linear units are the EPSG definition's: metre (9001) or US survey foot
// (9003, 1200/3937 m).
//
// # Datum shifts
//
// A CRS on another datum than WGS 84 is moved to WGS 84 by the operation
// PROJ chooses for `cs2cs EPSG:code EPSG:4326` when no grid file is
// installed (as `projinfo -s EPSG:code -t EPSG:4326 --spatial-test
// intersects` lists them); [CRS.DatumShift] names it:
//
//   - ETRS89, SIRGAS 2000, NZGD2000, RGF93 v1: a null transformation
//     (EPSG:1149, 15894, 1565, 1671: the coordinates are taken as WGS 84,
//     to about 1 m);
//   - NAD83: "NAD83 to WGS 84 (1)", null (EPSG:1188, 4 m), except within
//     the boxes of Hawaii ("(3)", EPSG:1252) and the Aleutians ("(2)",
//     EPSG:1251), geocentric translations;
//   - NAD27: PROJ picks, point by point, the most accurate of the 30
//     NAD27 to WGS 84 geocentric translations and Helmert shifts that need
//     no grid (EPSG:1170–1187, 1249, 1250, 1530, 7698, 15699, 15852–15856,
//     15913, 15978; 7 to 44 m) whose area's bounding box holds the point,
//     preferring onshore areas, and its ballpark (null) transformation
//     where none does; this package does the same, testing a projected
//     point against the area boxes projected into the CRS as PROJ does.
//     NAD27 UTM zones west of 8N and east of 20N are left out: there the
//     wide areas of Canada and Alaska project into the zone so that
//     PROJ's choice differs from ours at some points (by up to 150 m);
//   - Israel 1993: "Israel 1993 to WGS 84 (2)", a 7-parameter coordinate
//     frame Helmert (0.5 m);
//   - JAD69: "JAD69 to WGS 84 (3)", a 7-parameter coordinate frame
//     Helmert (1 m).
//
// Helmert shifts are applied between geocentric coordinates as PROJ's
// `+proj=helmert` does (small-angle rotation matrix, its transpose for the
// inverse), with PROJ's closed-form geocentric to geodetic conversion.
package crs
