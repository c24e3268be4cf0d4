// What the commands use of the geolocation layer. Commands import this module dynamically and
// only when they need it (origins check, GeoJSON import, --location-file): turf and the
// country outlines then load for those commands alone.
export { readPlotFile } from './formats.js';
export { readGeoJsonFile, parseGeoJson, type PlotGeometry } from './geojson.js';
export { checkPlots, swappedOutside, NO_GEOMETRY, type CheckResult, type CheckedFeature, type Finding, type Summary } from './plot-checks.js';
export { countryDisagreement, countryOf, disagreement, externalIdOf, featureLabel, givesText, idProblem, labelText, nameOf, valueProblem, COUNTRY_PROPERTIES, DESCRIPTION_PROPERTIES, EXTERNAL_ID_PROPERTIES, NAME_PROPERTIES } from './feature-fields.js';
export { countryOutline, allOutlines, OUTSIDE_TOLERANCE_KM } from './countries.js';
export { formatHectares, hectares } from './area.js';
export { renderPlotMap, type MapPlot } from './plot-map.js';
