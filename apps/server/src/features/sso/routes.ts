/**
 * Single sign-on routes: the SSO tab (team administrators) and the public sign-in steps.
 * The assertion consumer takes the identity provider's form post, so it gets its own scope with
 * a parser for `application/x-www-form-urlencoded` (no other route accepts that type) and is
 * exempt from the CSRF header by its descriptor: the signed, addressed, single-use response is
 * its protection.
 */
import type { FastifyInstance } from 'fastify';
import { SSO_RESPONSE_MAX_CHARS, ssoRoutes } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { requireAuth } from '../../plugins/app/auth';
import { registerRoute } from '../../plugins/app/route';
import { configReply, loadSsoConfig, updateSsoConfig } from './config';
import { decodeMetadataFile, parseIdpMetadata } from './metadata';
import { spMetadataXml } from './saml';
import { consumeAssertion, exchangeCredential, startSsoLogin } from './sign-in';

/** The form post: the SAMLResponse plus a RelayState and field names. */
const ACS_BODY_LIMIT = SSO_RESPONSE_MAX_CHARS * 2;

export function registerSsoRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ssoRoutes.config, async ({ request }) => {
    const auth = requireAuth(request);
    return configReply(ctx, auth.company, await loadSsoConfig(ctx, auth.company.id));
  });

  registerRoute(app, ssoRoutes.updateConfig, ({ body, request }) =>
    updateSsoConfig(ctx, requireAuth(request), body),
  );

  registerRoute(app, ssoRoutes.parseMetadata, async ({ body }) => {
    const [file] = body.metadata;
    const parsed = parseIdpMetadata(decodeMetadataFile(file!), 'metadata.0.content');
    return {
      entity_id: parsed.entity_id,
      sso_url: parsed.sso_url,
      certificates: parsed.certificates,
    };
  });

  registerRoute(app, ssoRoutes.login, async ({ params, request, reply }) => {
    const url = await startSsoLogin(ctx, request, reply, params.domain);
    return reply.header('cache-control', 'no-store').redirect(url, 302);
  });

  registerRoute(app, ssoRoutes.spMetadata, async ({ params, reply }) =>
    reply.type('application/samlmetadata+xml').send(spMetadataXml(ctx, params.domain)),
  );

  void app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: ACS_BODY_LIMIT },
      (_request, body, done) => {
        const form = new URLSearchParams(String(body));
        done(null, Object.fromEntries(form));
      },
    );
    registerRoute(scope, ssoRoutes.acs, async ({ params, body, request, reply }) => {
      const location = await consumeAssertion(ctx, request, params.domain, body.SAMLResponse);
      // 303: the browser follows with a GET; the credential must not be cached anywhere.
      return reply.header('cache-control', 'no-store').redirect(location, 303);
    });
  });

  registerRoute(app, ssoRoutes.pwSso, ({ params, request, reply }) =>
    exchangeCredential(ctx, request, reply, params.token),
  );
  registerRoute(app, ssoRoutes.cfSso, ({ params, request, reply }) =>
    exchangeCredential(ctx, request, reply, params.token),
  );
}
