import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from './app-error.ts';
import { registerErrorHandler } from './error-handler.ts';

async function appWith(register: (app: ReturnType<typeof Fastify>) => void) {
  const app = Fastify({ logger: false });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  register(app);
  await app.ready();
  return app;
}

describe('error handler', () => {
  it('hides the internals of unexpected errors behind a 500', async () => {
    const app = await appWith((a) =>
      a.get('/boom', async () => {
        throw new Error('relation users_secret does not exist');
      }),
    );
    const res = await app.inject({ method: 'GET', url: '/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ message: 'Something went wrong on our side.', code: 'internal_error' });
    expect(res.body).not.toContain('users_secret');
  });

  it('maps AppError codes to the spec statuses with field errors', async () => {
    const app = await appWith((a) => {
      a.get('/gone', async () => {
        throw new AppError('not_found');
      });
      a.get('/blocked', async () => {
        throw new AppError('account_blocked');
      });
      a.get('/field', async () => {
        throw AppError.field('email', 'email_taken');
      });
      a.get('/slow', async () => {
        throw new AppError('too_many_requests');
      });
    });
    expect((await app.inject('/gone')).statusCode).toBe(404);
    const blocked = await app.inject('/blocked');
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().code).toBe('account_blocked');
    const field = await app.inject('/field');
    expect(field.statusCode).toBe(422);
    expect(field.json()).toEqual({
      message: 'The email has already been taken.',
      code: 'validation_failed',
      detail: { code: 'email_taken' },
      errors: { email: [{ code: 'email_taken' }] },
    });
    expect((await app.inject('/slow')).statusCode).toBe(429);
  });

  it('turns zod validation failures into 422 with one list per field', async () => {
    const app = await appWith((a) =>
      a.post(
        '/things',
        { schema: { body: z.object({ name: z.string().min(1, 'name_required').max(3), n: z.number() }) } },
        async () => 'ok',
      ),
    );
    const res = await app.inject({ method: 'POST', url: '/things', payload: { name: '', n: 'x' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ name: [{ code: 'name_required' }], n: [{ code: 'wrong_type' }] });
    // zod's own checks answer codes with their limits, through the shared error map.
    const long = await app.inject({ method: 'POST', url: '/things', payload: { name: 'abcdef', n: 1 } });
    expect(long.json().errors).toEqual({ name: [{ code: 'text_too_long', params: { max: '3' } }] });
  });
});
