import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import type { PgliteClient } from './pglite-client.ts';

/**
 * Kysely over the PGlite worker. PGlite is one connection, so acquiring a Kysely connection takes
 * the client's lock: a plain query holds it for one statement, a transaction from BEGIN to
 * COMMIT/ROLLBACK, and everyone else waits in FIFO order.
 */
export class PgliteDialect implements Dialect {
  #client: PgliteClient;
  constructor(client: PgliteClient) {
    this.#client = client;
  }
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PgliteDriver(this.#client);
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}

class PgliteDriver implements Driver {
  #client: PgliteClient;
  #releases = new WeakMap<DatabaseConnection, () => void>();
  constructor(client: PgliteClient) {
    this.#client = client;
  }
  async init() {}
  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.#client.acquire();
    const connection = new PgliteConnection(this.#client);
    this.#releases.set(connection, release);
    return connection;
  }
  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    const isolation = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : '';
    await connection.executeQuery(CompiledQuery.raw(`begin${isolation}`));
  }
  async commitTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }
  async releaseConnection(connection: DatabaseConnection) {
    this.#releases.get(connection)?.();
    this.#releases.delete(connection);
  }
  async destroy() {
    await this.#client.close();
  }
}

class PgliteConnection implements DatabaseConnection {
  #client: PgliteClient;
  constructor(client: PgliteClient) {
    this.#client = client;
  }
  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.#client.query(compiledQuery.sql, compiledQuery.parameters);
    return {
      rows: result.rows as R[],
      numAffectedRows: BigInt(result.affectedRows),
    };
  }
  // biome-ignore lint/correctness/useYield: not supported; long reads go in keyset batches (decision 002).
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming queries are not supported by the PGlite dialect yet');
  }
}
