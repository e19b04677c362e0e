/**
 * A small but real Node.js service for part 3: Express routes, dates with dayjs, input checked by
 * zod, tests with mocha + supertest. Real dependencies from the npm registry (~160 packages
 * installed), so `npm ci` and `npm test` do what they do in a real repository.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { runProcess } from './run-process.js';

const PACKAGE_JSON = {
  name: 'autofix-bench-service',
  version: '1.0.0',
  private: true,
  scripts: { test: 'mocha --reporter dot' },
  dependencies: { dayjs: '^1.11.13', express: '^4.21.2', zod: '^3.24.1' },
  devDependencies: { mocha: '^10.8.2', supertest: '^7.0.0' },
};

const APP = String.raw`'use strict';
const express = require('express');
const dayjs = require('dayjs');
const { z } = require('zod');

const Order = z.object({
  item: z.string().min(1),
  quantity: z.number().int().positive(),
  deliverInDays: z.number().int().min(0).max(60).default(3),
});

function createApp(now = () => dayjs('2026-01-15T10:00:00Z')) {
  const app = express();
  app.use(express.json());
  const orders = [];
  app.get('/health', (_req, res) => res.json({ ok: true }));
  app.get('/due', (req, res) => {
    const days = Number(req.query.days ?? 0);
    if (!Number.isInteger(days) || days < 0) return res.status(400).json({ error: 'days' });
    res.json({ due: now().add(days, 'day').format('YYYY-MM-DD') });
  });
  app.post('/orders', (req, res) => {
    const parsed = Order.safeParse(req.body);
    if (!parsed.success) return res.status(422).json({ error: parsed.error.issues[0].path.join('.') });
    const order = { id: orders.length + 1, ...parsed.data };
    order.deliverBy = now().add(order.deliverInDays, 'day').format('YYYY-MM-DD');
    orders.push(order);
    res.status(201).json(order);
  });
  app.get('/orders/:id', (req, res) => {
    const order = orders.find((o) => o.id === Number(req.params.id));
    return order ? res.json(order) : res.status(404).end();
  });
  return app;
}

module.exports = { createApp };
`;

const TEST = String.raw`'use strict';
const assert = require('node:assert/strict');
const request = require('supertest');
const { createApp } = require('../src/app');

describe('service', () => {
  let app;
  beforeEach(() => { app = createApp(); });

  it('answers health checks', async () => {
    const res = await request(app).get('/health').expect(200);
    assert.deepEqual(res.body, { ok: true });
  });
  it('computes a due date', async () => {
    const res = await request(app).get('/due?days=20').expect(200);
    assert.equal(res.body.due, '2026-02-04');
  });
  it('refuses negative days', () => request(app).get('/due?days=-1').expect(400));
  it('creates an order with a default delivery', async () => {
    const res = await request(app).post('/orders').send({ item: 'tea', quantity: 2 }).expect(201);
    assert.equal(res.body.deliverBy, '2026-01-18');
  });
  it('refuses an order without a quantity', async () => {
    const res = await request(app).post('/orders').send({ item: 'tea' }).expect(422);
    assert.equal(res.body.error, 'quantity');
  });
  it('finds an order it created', async () => {
    await request(app).post('/orders').send({ item: 'milk', quantity: 1, deliverInDays: 0 });
    const res = await request(app).get('/orders/1').expect(200);
    assert.equal(res.body.item, 'milk');
  });
  it('answers 404 for an unknown order', () => request(app).get('/orders/9').expect(404));
  for (let days = 0; days < 30; days++) {
    it('due date ' + days + ' days ahead is ' + days + ' days after today', async () => {
      const res = await request(app).get('/due?days=' + days).expect(200);
      assert.equal(require('dayjs')(res.body.due).diff('2026-01-15', 'day'), days);
    });
  }
});
`;

/** Writes the project (no lock file, no node_modules) into `dir`. */
export async function writeNodeProject(dir: string): Promise<void> {
  const files: Record<string, string> = {
    'package.json': `${JSON.stringify(PACKAGE_JSON, null, 2)}\n`,
    'src/app.js': APP,
    'test/app.test.js': TEST,
  };
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
}

/**
 * `npm install` once, outside any sandbox, for the lock file a real repository commits; then the
 * installed packages go (every job starts from a checkout). Runs with a HOME of its own and none
 * of the `npm_*` variables `npm run` exported to us, so neither the user's npmrc nor its cache
 * shapes the lock file or warms the caches under test.
 */
export async function lockNodeProject(dir: string, home: string): Promise<void> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)),
  );
  await runProcess('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: dir,
    env: { ...env, HOME: home },
  });
  await rm(join(dir, 'node_modules'), { recursive: true, force: true });
}
