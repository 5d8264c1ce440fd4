// Jest reads `testTimeout` from the root configuration only, not from a project: each
// integration file boots the app on a new database in beforeAll (seconds on a busy 2-core box),
// so its tests and hooks get 30 s.
jest.setTimeout(30_000);
