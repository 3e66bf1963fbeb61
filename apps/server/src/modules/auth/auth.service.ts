import { randomBytes } from 'node:crypto';
import type { Locale, RegisterInput, Role, TokenResponse } from '@adp/contract';
import { jwtVerify, SignJWT } from 'jose';
import type { Config } from '../../config.ts';
import type { UserRow } from '../../db/schema/index.ts';
import { AppError, FieldsError } from '../../lib/errors.ts';
import { translator } from '../../lib/i18n.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../lib/passwords.ts';
import type { SharedStore } from '../../lib/shared-store.ts';
import { hashToken, newOpaqueToken } from '../../lib/tokens.ts';
import type { UsersRepository } from '../users/users.repository.ts';
import type { AuthRepository } from './auth.repository.ts';

const LOGIN_WINDOW_MS = 15 * 60_000;
const FORGOT_WINDOW_MS = 60 * 60_000;
const FORGOT_MAX_PER_EMAIL = 5;

export interface AccessClaims {
  userId: number;
  role: Role;
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

  async function issueTokens(user: UserRow, familyId?: string): Promise<TokenResponse> {
    const accessToken = await new SignJWT({ role: user.role })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(user.id))
      .setIssuedAt()
      .setExpirationTime(`${config.accessTokenTtl}s`)
      .sign(secret);
    const refresh = newOpaqueToken();
    await repo.insertRefreshToken({
      userId: user.id,
      ...(familyId ? { familyId } : {}),
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

    async verifyAccessToken(token: string): Promise<AccessClaims | undefined> {
      try {
        const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] });
        const userId = Number(payload.sub);
        if (!Number.isSafeInteger(userId)) return undefined;
        return { userId, role: payload.role as Role };
      } catch {
        return undefined;
      }
    },

    /** Password grant. Failures count per account+IP and per IP; past the limit the answer is 429. */
    async login(username: string, password: string, ip: string): Promise<TokenResponse> {
      const email = username.trim().toLowerCase();
      const pairKey = `login:fail:${email}|${ip}`;
      const ipKey = `login:fail-ip:${ip}`;
      const max = config.loginMaxFailures;
      if ((await store.count(pairKey)) >= max || (await store.count(ipKey)) >= max * 10) {
        throw new AppError(429, 'too_many_requests');
      }
      const user = email.length <= 254 ? await users.findByEmail(email) : undefined;
      const ok = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), password);
      if (!user || !ok) {
        await store.hit(pairKey, LOGIN_WINDOW_MS);
        await store.hit(ipKey, LOGIN_WINDOW_MS);
        throw invalidGrant();
      }
      await store.reset(pairKey);
      return issueTokens(user);
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

    /** Ends every session of a user (its refresh tokens; access tokens die within their short lifetime). */
    revokeSessions(userId: number): Promise<void> {
      return repo.revokeAllOfUser(userId);
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
        });
      } catch (err) {
        // two registrations racing for one e-mail: the unique index decides
        if (
          String((err as { cause?: { code?: string } }).cause?.code ?? (err as { code?: string }).code) ===
          '23505'
        ) {
          throw new FieldsError([{ field: 'email', code: 'email_taken' }]);
        }
        throw err;
      }
      return { ...(await issueTokens(user)), account: users.toAccount(user) };
    },

    /** Always answers the same, whether or not the e-mail is known, so accounts cannot be probed. */
    async forgotPassword(emailAddress: string, locale: Locale): Promise<void> {
      const email = emailAddress.toLowerCase();
      if ((await store.hit(`forgot:${email}`, FORGOT_WINDOW_MS)) > FORGOT_MAX_PER_EMAIL) return;
      const user = await users.findByEmail(email);
      if (!user) return;
      const reset = newOpaqueToken();
      await repo.insertPasswordReset({
        userId: user.id,
        tokenHash: reset.hash,
        expiresAt: new Date(Date.now() + config.resetTokenTtl * 1000),
      });
      const t = translator(locale);
      const link = `${config.publicUrl}/pages/authentication/reset-password-v2?token=${encodeURIComponent(reset.token)}`;
      const minutes = Math.round(config.resetTokenTtl / 60);
      const lines = [
        t('emails:reset_greeting', { name: user.name }),
        t('emails:reset_body', { minutes }),
        link,
        t('emails:reset_ignore'),
        t('emails:signature'),
      ];
      const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
      await mailer.send({
        to: user.email,
        subject: t('emails:reset_subject'),
        text: lines.join('\n\n'),
        html: [
          `<p>${esc(lines[0] ?? '')}</p>`,
          `<p>${esc(lines[1] ?? '')}</p>`,
          `<p><a href="${esc(link)}">${esc(t('emails:reset_action'))}</a></p>`,
          `<p>${esc(lines[3] ?? '')}</p>`,
          `<p>${esc(lines[4] ?? '')}</p>`,
        ].join('\n'),
      });
    },

    async resetPassword(token: string, password: string): Promise<void> {
      const spent = await repo.spendPasswordReset(hashToken(token));
      if (!spent) throw new AppError(400, 'invalid_reset_token');
      await users.update(spent.userId, { passwordHash: await hashPassword(password) });
      // a reset means the old password may be known to someone else: end every session
      await repo.revokeAllOfUser(spent.userId);
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
