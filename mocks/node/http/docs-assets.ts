/** The fixed files of the API reference page (`/docs`, docs-page.ts): its script, its styles, its policy. */

/** Nothing but the mock's own origin, for scripts, styles, images and requests alike. */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' " +
  "'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src " +
  "'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'self'";

/**
 * Starts Swagger UI from the page's JSON config block (a file of its own, so the page's CSP allows
 * no inline script).
 */
export const INIT_JS = `'use strict';
(function () {
  var config = JSON.parse(document.getElementById('docs-config').textContent);
  var ui = SwaggerUIBundle({
    url: config.spec,
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    validatorUrl: null,
    displayOperationId: true,
    displayRequestDuration: true,
    persistAuthorization: false,
    onComplete: function () {
      if (config.scheme && config.key) ui.preauthorizeApiKey(config.scheme, config.key);
    },
  });
  window.ui = ui;
})();
`;

export const DOCS_CSS =
  `body { margin: 0; }
.mock-banner { font-family: sans-serif; font-size: 14px; background: #f3f6fa; ` +
  `border-bottom: 1px solid #d8dee4; padding: 10px 20px; color: #3b4151; }
.mock-banner p { margin: 0 0 4px; }
.mock-banner code { background: #e8ecf1; padding: 1px 4px; border-radius: 3px; }
.mock-banner table { border-collapse: collapse; margin: 6px 0; }
.mock-banner th, .mock-banner td { text-align: left; padding: 2px 12px 2px 0; }
.mock-banner summary { cursor: pointer; }
`;
