import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { MAX_URL_LENGTH, recordVisit } from '../modules/pixels/pixels.audience.ts';
import {
  AUDIENCE_COOKIE,
  audiencesOf,
  cookieAttributes,
  newVisitorId,
  VISITOR_COOKIE,
  visitorIdOf,
  visitorIdPattern,
  withAudience,
} from './visitor-cookie.ts';

const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/**
 * Finds every pixel tag on the page (several advertisers may share one) and sends one beacon each; the
 * mark keeps a tag that runs twice from counting twice. Credentials go along so our visitor cookie does;
 * where the browser keeps no cookie of ours on other sites, an id kept in the site's own storage (`v`)
 * still counts a returning visitor once.
 */
const script = `(function(){
var d=document,l=d.location,vid='';
try{
vid=localStorage.getItem('${VISITOR_COOKIE}')||'';
if(!/^[A-Za-z0-9_-]{16,64}$/.test(vid)){
var a=new Uint8Array(18);crypto.getRandomValues(a);
vid=btoa(String.fromCharCode.apply(null,a)).replace(/\\+/g,'-').replace(/\\//g,'_').replace(/=+$/,'');
localStorage.setItem('${VISITOR_COOKIE}',vid);
}
}catch(e){vid='';}
var tags=d.querySelectorAll('script[data-pixel]');
for(var i=0;i<tags.length;i++){
var s=tags[i],id=s.getAttribute('data-pixel');
if(!id||!/^[0-9]{1,18}$/.test(id)||s.getAttribute('data-pixel-sent'))continue;
s.setAttribute('data-pixel-sent','1');
var base=(s.src||'').replace(/\\/pixel\\.js(?:[?#].*)?$/,'');
var url=base+'/px/'+id+'.gif?u='+encodeURIComponent(String(l.href).slice(0,${MAX_URL_LENGTH}))+(vid?'&v='+vid:'');
try{
if(window.fetch){fetch(url,{mode:'no-cors',credentials:'include',keepalive:true,cache:'no-store'});}
else{var img=new Image(1,1);img.src=url;}
}catch(e){}
}
})();
`;

/**
 * The remarketing pixel, loaded by advertisers' pages: no login, readable from any origin, and never an
 * error status, so a broken or deleted pixel cannot break the host page.
 */
export async function pixelRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { db } = ctx.database;
  const attributes = cookieAttributes(ctx.config.publicUrl);

  app.get('/pixel.js', { schema: { hide: true } }, async (_req, reply) =>
    reply
      .type('application/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(script),
  );

  app.get(
    '/px/:file',
    // no schema: a malformed request still gets the image, never a validation error
    { schema: { hide: true } },
    async (req, reply) => {
      reply
        .type('image/gif')
        .header('cache-control', 'no-store, no-cache, must-revalidate, max-age=0')
        .header('pragma', 'no-cache');
      const match = /^(\d{1,18})\.gif$/.exec((req.params as { file: string }).file);
      const pixelId = match ? Number(match[1]) : Number.NaN;
      if (!Number.isSafeInteger(pixelId)) return reply.send(GIF);
      const { u, v } = req.query as { u?: unknown; v?: unknown };
      // our cookie first: it is the id ad requests on other sites carry, which remarketing matches
      const fromPage = typeof v === 'string' && visitorIdPattern.test(v) ? v : undefined;
      const visitorId = visitorIdOf(req) ?? fromPage ?? newVisitorId();
      const referer = typeof req.headers.referer === 'string' ? req.headers.referer : '';
      let recorded = false;
      try {
        recorded = await recordVisit(db, pixelId, visitorId, typeof u === 'string' && u ? u : referer);
      } catch (err) {
        req.log.warn({ err, pixelId }, 'pixel visit not recorded');
      }
      if (!recorded) return reply.send(GIF);
      // refreshed on every visit so an active visitor keeps the same id beyond one year
      // and the audience joined, so ad requests know it without a lookup (targeting "pixels")
      reply.header('set-cookie', [
        `${VISITOR_COOKIE}=${visitorId}; ${attributes}`,
        `${AUDIENCE_COOKIE}=${withAudience(audiencesOf(req), String(pixelId))}; ${attributes}`,
      ]);
      return reply.send(GIF);
    },
  );
}
