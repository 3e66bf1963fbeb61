import { randomBytes, randomUUID } from 'node:crypto';
import type { Locale, RegisterInput, Role, TokenResponse } from '@adp/contract';
import { jwtVerify, SignJWT } from 'jose';
import type { Config } from '../../config.ts';
import type { UserRow } from '../../db/schema/index.ts';
import { AppError, FieldsError } from '../../lib/errors.ts';
import { translator } from '../../lib/i18n.ts';
import type { Mail, Mailer } from '../../lib/mailer.ts';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../lib/passwords.ts';
import type { SharedStore } from '../../lib/shared-store.ts';
import { hashToken, newOpaqueToken } from '../../lib/tokens.ts';
import { uniqueViolation } from '../../lib/unique.ts';
import type { UsersRepository } from '../users/users.repository.ts';
import type { AuthRepository } from './auth.repository.ts';

const LOGIN_WINDOW_MS = 15 * 60_000;
const FORGOT_WINDOW_MS = 60 * 60_000;
const FORGOT_MAX_PER_EMAIL = 5;
/** How long the link of an e-mail change works. */
export const EMAIL_CHANGE_TTL_S = 24 * 3600;

export interface AccessClaims {
  userId: number;
  role: Role;
  /** The session (refresh token family) the access token was issued for. */
  familyId: string | undefined;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A plain mail: paragraphs, an optional button link (also written out in the text), more paragraphs. */
function composeMail(
  to: string,
  subject: string,
  before: string[],
  link: { url: string; label: string } | undefined,
  after: string[],
): Mail {
  const text = [...before, ...(link ? [link.url] : []), ...after].join('\n\n');
  const html = [
    ...before.map((p) => `<p>${esc(p)}</p>`),
    ...(link ? [`<p><a href="${esc(link.url)}">${esc(link.label)}</a></p>`] : []),
    ...after.map((p) => `<p>${esc(p)}</p>`),
  ].join('\n');
  return { to, subject, text, html };
}

export function createAuthService(deps: {
  config: Config;
  repo: AuthRepository;
  users: UsersRepository;
  store: SharedStore;
  mailer: Mailer;
  secret: Uint8Array;
}) {
  const { config, repo, users, store, mailer, secret } = deps;

  /**
   * The password failure counters of an account at an address (per account and address, per address), as
   * the login and the current-password check share them: past the limit, 429 until LOGIN_WINDOW_MS passes.
   */
  async function failureCounters(email: string, ip: string) {
    const pairKey = `login:fail:${email.trim().toLowerCase()}|${ip}`;
    const ipKey = `login:fail-ip:${ip}`;
    const max = config.loginMaxFailures;
    if ((await store.count(pairKey)) >= max || (await store.count(ipKey)) >= max * 10)
      throw new AppError(429, 'too_many_requests', { retryAfter: LOGIN_WINDOW_MS / 1000 });
    return {
      async failed() {
        await store.hit(pairKey, LOGIN_WINDOW_MS);
        await store.hit(ipKey, LOGIN_WINDOW_MS);
      },
      succeeded: () => store.reset(pairKey),
    };
  }

  async function issueTokens(user: UserRow, familyId: string = randomUUID()): Promise<TokenResponse> {
    // the family travels in the access token, so a request knows its own session (kept on revocations)
    const accessToken = await new SignJWT({ role: user.role, fid: familyId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(user.id))
      .setIssuedAt()
      .setExpirationTime(`${config.accessTokenTtl}s`)
      .sign(secret);
    const refresh = newOpaqueToken();
    await repo.insertRefreshToken({
      userId: user.id,
      familyId,
      tokenHash: refresh.hash,
      expiresAt: new Date(Date.now() + config.refreshTokenTtl * 1000),
    });
    return {
      access_token: accessToken,
      refresh_token: refresh.token,
      token_type: 'Bearer',
      expires_in: config.accessTokenTtl,
      user_id: String(user.id),
      role: user.role as Role,
    };
  }

  const invalidGrant = () => new AppError(400, 'invalid_grant');

  return {
    issueTokens,

    /**
     * The claims of a valid access token whose session still stands: a session revoked (logout, a password
     * or e-mail change, a reused refresh token) ends its access tokens at once, not when they expire.
     */
    async verifyAccessToken(token: string): Promise<AccessClaims | undefined> {
      let claims: AccessClaims;
      try {
        const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] });
        const userId = Number(payload.sub);
        if (!Number.isSafeInteger(userId)) return undefined;
        claims = {
          userId,
          role: payload.role as Role,
          familyId: typeof payload.fid === 'string' ? payload.fid : undefined,
        };
      } catch {
        return undefined;
      }
      if (claims.familyId && !(await repo.familyLive(claims.familyId))) return undefined;
      return claims;
    },

    /** Password grant. Failures count per account+IP and per IP; past the limit the answer is 429. */
    async login(username: string, password: string, ip: string): Promise<TokenResponse> {
      const email = username.trim().toLowerCase();
      const counters = await failureCounters(email, ip);
      const user = email.length <= 254 ? await users.findByEmail(email) : undefined;
      const ok = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), password);
      if (!user || !ok) {
        await counters.failed();
        throw invalidGrant();
      }
      await counters.succeeded();
      return issueTokens(user);
    },

    /**
     * The current password a signed-in user gives to change its password or e-mail: checked against the
     * same failure counters as the login (per account and address, per address), so a stolen session
     * cannot guess it at the API's rate. Missing: 422 required; wrong: 422 current_password_wrong; past
     * the limit: 429.
     */
    async checkCurrentPassword(
      user: { email: string; passwordHash: string },
      password: string | undefined,
      ip: string,
    ): Promise<void> {
      if (!password) throw new FieldsError([{ field: 'current_password', code: 'required' }]);
      const counters = await failureCounters(user.email, ip);
      if (!(await verifyPassword(user.passwordHash, password))) {
        await counters.failed();
        throw new AppError(422, 'current_password_wrong', {}, 'current_password');
      }
      await counters.succeeded();
    },

    /** The role of a refresh token's user, without spending it (undefined when unknown). */
    async refreshRole(token: string): Promise<string | undefined> {
      const known = await repo.findRefreshToken(hashToken(token));
      return known ? (await users.findById(known.userId))?.role : undefined;
    },

    /** Refresh grant with rotation: a token works once; a second use revokes its whole family. */
    async refresh(token: string): Promise<TokenResponse> {
      const hash = hashToken(token);
      const spent = await repo.spendRefreshToken(hash);
      if (!spent) {
        const known = await repo.findRefreshToken(hash);
        if (known && (known.usedAt || known.revokedAt)) await repo.revokeFamily(known.familyId);
        throw invalidGrant();
      }
      const user = await users.findById(spent.userId);
      if (!user) throw invalidGrant();
      return issueTokens(user, spent.familyId);
    },

    /**
     * Ends every session of a user but `keepFamily` (the caller's own, when it changed its password):
     * its refresh tokens are revoked, and with them its access tokens (verifyAccessToken).
     */
    revokeSessions(userId: number, keepFamily?: string): Promise<void> {
      return repo.revokeAllOfUser(userId, keepFamily);
    },

    async revoke(token: string): Promise<void> {
      const known = await repo.findRefreshToken(hashToken(token));
      if (known) await repo.revokeFamily(known.familyId);
    },

    async register(input: RegisterInput, locale: Locale) {
      if (await users.findByEmail(input.email))
        throw new FieldsError([{ field: 'email', code: 'email_taken' }]);
      const referrer = input.affiliate_id ? await users.findByAffiliateId(input.affiliate_id) : undefined;
      let user: UserRow;
      try {
        user = await users.create({
          name: input.name,
          email: input.email,
          phone: input.phone,
          passwordHash: await hashPassword(input.password),
          role: 'default',
          locale: input.locale ?? locale,
          referrerId: referrer?.id,
          // the 24-hour rule: a self-registered user's statistics show from a day after registration
          statsAvailableAt: config.statsDelayHours
            ? new Date(Date.now() + config.statsDelayHours * 3_600_000)
            : undefined,
        });
      } catch (err) {
        // two registrations racing for one e-mail: the unique index decides
        if (uniqueViolation(err)) {
          throw new FieldsError([{ field: 'email', code: 'email_taken' }]);
        }
        throw err;
      }
      return { ...(await issueTokens(user)), account: users.toAccount(user) };
    },

    /**
     * Answers the same, in the same time, whether or not the e-mail is known, so accounts cannot be
     * probed: the request does the same work either way (count, look up, make and hash a token), and
     * what only an account needs (its reset row, the mail and its SMTP delivery) runs after the answer.
     */
    async forgotPassword(emailAddress: string, locale: Locale): Promise<void> {
      const email = emailAddress.toLowerCase();
      const allowed = (await store.hit(`forgot:${email}`, FORGOT_WINDOW_MS)) <= FORGOT_MAX_PER_EMAIL;
      const user = await users.findByEmail(email);
      const reset = newOpaqueToken();
      if (!user || !allowed) return;
      mailer.defer('password reset mail', async () => {
        await repo.insertPasswordReset({
          userId: user.id,
          tokenHash: reset.hash,
          expiresAt: new Date(Date.now() + config.resetTokenTtl * 1000),
        });
        const t = translator(locale);
        const link = `${config.publicUrl}/pages/authentication/reset-password-v2?token=${encodeURIComponent(reset.token)}`;
        const minutes = Math.round(config.resetTokenTtl / 60);
        await mailer.send(
          composeMail(
            user.email,
            t('emails:reset_subject'),
            [t('emails:reset_greeting', { name: user.name }), t('emails:reset_body', { minutes })],
            { url: link, label: t('emails:reset_action') },
            [t('emails:reset_ignore'), t('emails:signature')],
          ),
        );
      });
    },

    async resetPassword(token: string, password: string): Promise<void> {
      const spent = await repo.spendPasswordReset(hashToken(token));
      if (!spent) throw new AppError(400, 'invalid_reset_token');
      await users.update(spent.userId, { passwordHash: await hashPassword(password) });
      // older links of the same account stop working too
      await repo.spendPasswordResetsOf(spent.userId);
      // a reset means the old password may be known to someone else: end every session
      await repo.revokeAllOfUser(spent.userId);
    },

    /**
     * A user's own e-mail change: nothing changes yet. A single-use link goes to the new address, and
     * a notice to the current one, so the owner learns of a change it did not ask for.
     * `familyId` is the asking session, which survives the confirmation.
     */
    async requestEmailChange(user: UserRow, newEmail: string, familyId: string | undefined): Promise<void> {
      const change = newOpaqueToken();
      await repo.insertEmailChange({
        userId: user.id,
        email: newEmail,
        tokenHash: change.hash,
        familyId: familyId ?? null,
        expiresAt: new Date(Date.now() + EMAIL_CHANGE_TTL_S * 1000),
      });
      const t = translator(user.locale as Locale);
      const link = `${config.publicUrl}/confirm-email?token=${encodeURIComponent(change.token)}`;
      const hours = Math.round(EMAIL_CHANGE_TTL_S / 3600);
      await mailer.send(
        composeMail(
          newEmail,
          t('emails:email_change_subject'),
          [t('emails:reset_greeting', { name: user.name }), t('emails:email_change_body', { hours })],
          { url: link, label: t('emails:email_change_action') },
          [t('emails:email_change_ignore'), t('emails:signature')],
        ),
      );
      await mailer.send(
        composeMail(
          user.email,
          t('emails:email_change_notice_subject'),
          [
            t('emails:reset_greeting', { name: user.name }),
            t('emails:email_change_notice_body', { email: newEmail }),
            t('emails:email_change_notice_not_you'),
          ],
          undefined,
          [t('emails:signature')],
        ),
      );
    },

    /**
     * An admin set another user's e-mail address (`user` as it is now): a notice goes to the address it
     * had, so the owner learns of it; every session of the user ends (it signs in with the new address) and
     * every link mailed to it before stops working.
     */
    async emailSetByAdmin(user: UserRow, oldEmail: string): Promise<void> {
      const t = translator(user.locale as Locale);
      await mailer.send(
        composeMail(
          oldEmail,
          t('emails:email_set_notice_subject'),
          [
            t('emails:reset_greeting', { name: user.name }),
            t('emails:email_set_notice_body', { email: user.email }),
            t('emails:email_change_notice_not_you'),
          ],
          undefined,
          [t('emails:signature')],
        ),
      );
      await repo.revokeAllOfUser(user.id);
      // links mailed before (a password reset, an own e-mail change) stop working, as after a confirmed change
      await repo.spendPasswordResetsOf(user.id);
      await repo.spendEmailChangesOf(user.id);
    },

    /**
     * Opens the link of an e-mail change: the account moves to the new address, and every other
     * session of the user ends (the one that asked stays), so a stolen session dies with the change.
     */
    async confirmEmailChange(token: string): Promise<{ email: string }> {
      let done: Awaited<ReturnType<AuthRepository['confirmEmailChange']>>;
      try {
        done = await repo.confirmEmailChange(hashToken(token));
      } catch (err) {
        // someone took the address after the change was asked for
        if (uniqueViolation(err)) throw new FieldsError([{ field: 'email', code: 'email_taken' }]);
        throw err;
      }
      if (!done) throw new AppError(400, 'invalid_email_change_token');
      await repo.revokeAllOfUser(done.userId, done.familyId ?? undefined);
      return { email: done.email };
    },

    /** Makes sure the configured admin exists (ADMIN_EMAIL/ADMIN_PASSWORD), or creates one with a printed password. */
    async ensureAdmin(log: { warn: (obj: object, msg: string) => void; info: (msg: string) => void }) {
      if (config.adminEmail && config.adminPassword) {
        const existing = await users.findByEmail(config.adminEmail);
        if (!existing) {
          await users.create({
            name: 'Administrator',
            email: config.adminEmail.toLowerCase(),
            passwordHash: await hashPassword(config.adminPassword),
            role: 'admin',
          });
          log.info(`admin ${config.adminEmail} created`);
          return;
        }
        // through changeRole: an agency member made admin leaves its agency
        if (existing.role !== 'admin') await users.changeRole(existing.id, 'admin');
        if (!(await verifyPassword(existing.passwordHash, config.adminPassword))) {
          await users.update(existing.id, { passwordHash: await hashPassword(config.adminPassword) });
        }
        return;
      }
      if (await users.anyAdmin()) return;
      const email = config.adminEmail?.toLowerCase() ?? 'admin@localhost';
      const password = randomBytes(12).toString('base64url');
      await users.create({
        name: 'Administrator',
        email,
        passwordHash: await hashPassword(password),
        role: 'admin',
      });
      // printed once: the hash is all that is kept
      log.warn(
        { email, password },
        'created the first admin with a random password; change it after logging in',
      );
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
