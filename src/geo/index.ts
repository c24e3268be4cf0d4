// What the commands use of the geolocation layer. Commands import this module dynamically and
// only when they need it (origins check, GeoJSON import, --location-file): turf and the
// country outlines then load for those commands alone.
export { readPlotFile } from './formats.js';
export { formatByContent, formatByName, type PlotFormat } from './plot-format.js';
export { readGeoJsonFile, parseGeoJson, PLOT_TYPES, type GeoJsonFile, type PlotGeometry, type RawFeature } from './geojson.js';
export { checkPlots, formatPosition, LIMITS, type CheckOptions, type CheckResult, type CheckedFeature, type Finding, type Level, type Summary, REGISTRY_CODES } from './plot-checks.js';
export { countryOf, externalIdOf, featureLabel, nameOf, COUNTRY_PROPERTIES, NAME_PROPERTIES } from './feature-fields.js';
export { countryOutline, allOutlines, OUTSIDE_TOLERANCE_KM } from './countries.js';
export { formatHectares, hectares } from './area.js';
export { renderPlotMap, type MapPlot } from './plot-map.js';
