/**
 * Page numbers at the edge: the largest page a list takes answers an empty page, and one past
 * it is refused as a bad parameter. A page far past it (an offset beyond 2^63) made SQLite
 * fail the query, and the caller got an unknown error.
 */
import { PAGE_MAX } from '@portcullis/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedIn, type TestApp, type TestClient } from '../../test/harness';

describe('list pages at the edge', () => {
  let t: TestApp;
  let admin: TestClient;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedIn(t);
  });
  afterAll(() => t.close());

  it('answers the last page a list takes, empty, and refuses a page past it', async () => {
    const last = await admin.get(`/api/v1/tunnel_connection/list?page=${PAGE_MAX}&page_size=65535`);
    expect(last.statusCode, last.body).toBe(200);
    expect(last.json()).toMatchObject({ objects: [], num_results: 0 });
    const far = await admin.get(
      '/api/v1/tunnel_connection/list?page=1000000000000000&page_size=65535',
    );
    expect(far.statusCode).toBe(400);
    expect(far.json()).toMatchObject({ code: 'InvalidParameter' });
    for (const url of [
      '/api/search_tunnel?page_index=1000000000000000&page_size=25',
      '/api/event/get_login_log?page_index=1000000000000000&page_size=65535',
    ]) {
      expect((await admin.get(url)).json(), url).toMatchObject({ code: 'InvalidParameter' });
    }
  });
});
