// `npm start`'s embedded PostgreSQL, held by a process in a process group of its own: a terminal's
// Ctrl-C signals the whole foreground group (launcher and services), never the database, so the
// launcher can stop the services first and only then ask this process to stop PostgreSQL. If the
// launcher dies without asking, the IPC channel closes and PostgreSQL is stopped all the same.
import { openLocalDatabase } from '@svc/admin';

const database = await openLocalDatabase(process.env, () => undefined);
// The library's own signal hooks would exit at once; this process stops only when told.
process.removeAllListeners('SIGINT');
process.removeAllListeners('SIGTERM');
let stopping;
const stop = () => (stopping ??= database.close().then(() => process.exit(0)));
process.on('message', (message) => message === 'stop' && void stop());
process.on('disconnect', () => void stop());
process.send({ url: database.url });
