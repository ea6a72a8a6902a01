/**
 * links.*: the lead hands out, lists and revokes annotator links. Only a host with a
 * link registry has them (`loupe serve`); the role check in dispatch keeps them the lead's.
 * A link is for a person of the project: an imported label set can never be annotated as.
 */
import { ApiError, type ApiHandlers } from '../../../shared/api';
import type { CoreContext, LinkRegistry } from '../context';

export type LinksHandlers = Pick<ApiHandlers, 'links.list' | 'links.create' | 'links.revoke'>;

function registry(ctx: CoreContext): LinkRegistry {
  const links = ctx.options.links;
  if (!links)
    throw new ApiError({
      code: 'unsupported',
      message:
        'Annotator links exist only in `loupe serve` (start it with --annotator NAME, or create one there as the lead).',
    });
  return links;
}

export function createLinksHandlers(ctx: CoreContext): LinksHandlers {
  return {
    'links.list': async () => registry(ctx).list(),
    'links.create': async ({ annotator }) => {
      const links = registry(ctx);
      // The name becomes a person of the project now (an imported label set is refused: AnnotatorKindError).
      ctx.project().repo.ensureAnnotator(annotator, 'person');
      return links.create(annotator);
    },
    'links.revoke': async ({ id }) => ({ revoked: registry(ctx).revoke(id) }),
  };
}
