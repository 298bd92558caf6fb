/**
 * The package's `utility-api/http` entry: the HTTP app over what `buildUseCases` built, with the
 * server's routes, errors and OpenAPI document for the families built.
 */
export { createHttpApp, type HttpApp } from './library.js';
