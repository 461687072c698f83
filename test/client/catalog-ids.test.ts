import { describe, expect, it } from 'vitest';
import { catalogModelIds } from '../../src/client/catalog-ids.ts';

// §4: "Response shape of /v1/models: not shown"; §9 step 3 checks that it lists the model. The contract
// suite, verify-family and monitor read the IDs through this one reader.
describe('catalogModelIds', () => {
  it("reads the gateway's shape: data[].id only", () => {
    const list = { object: 'list', data: [{ id: 'video-pro-v1', owned_by: 'x' }, { id: 7 }, null] };
    expect(catalogModelIds(list)).toEqual(['video-pro-v1']);
  });

  it('finds the IDs in any other JSON shape, at any depth', () => {
    expect(
      catalogModelIds({ models: [{ name: 'video-pro-v1' }, { name: 'alt-video-v2' }] }),
    ).toEqual(['video-pro-v1', 'alt-video-v2']);
    expect(catalogModelIds(['video-lite-v1'])).toEqual(['video-lite-v1']);
  });

  it('lists nothing for an answer that is not JSON, and nothing made up for an empty one', () => {
    expect(catalogModelIds(undefined)).toBeUndefined();
    expect(catalogModelIds({})).toEqual([]);
    expect(catalogModelIds(null)).toEqual([]);
  });
});
