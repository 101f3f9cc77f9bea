import { type RouteDoc, success } from '../../http/openapi.js';

export const doc: RouteDoc = {
  tag: 'Service',
  description:
    'This description. `servers` names where it was served (on AWS, with the stage), so a client generated from it calls the same API.',
  responses: {
    '200': success('The OpenAPI 3.1 document.', { type: 'object', additionalProperties: true }, undefined),
  },
};
