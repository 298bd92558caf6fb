/**
 * What other families may use of places: finding a place by its name or checking a point, over
 * the gazetteer port. Weather reaches places through this entry and nothing else.
 */
export { checkCoordinates, findPlacesNamed } from './location-queries.js';
export { Gazetteer } from './ports.js';
