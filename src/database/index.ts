export { DatabaseModule, DATABASE_CONNECTION } from './database.module';
export { Database, type Gathering } from './database.service';
export type { AppDatabase, DatabaseConnection, DatabaseDriver } from './database.types';
export { isInvalidRegex, isUniqueViolation, sqlStateOf } from './errors';
export { rowsOf } from './rows';
export { lockUntilCommit } from './transaction-lock';
