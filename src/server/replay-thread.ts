// The entry of a what-if replay's worker thread (planning/replay-runner.ts starts it through
// compose.ts), composed here as compose.ts composes the console: the planning area's replay,
// reading the integrations' reported minutes through that area's reader on the connection the
// thread opens. A thread cannot be handed the functions of the console's port, so the choice of
// implementation is this file's imports: type-checked, and under the linter's zones.
import { ReportedMinutesReader } from './integrations/reported-minutes-reader';
import { serveReplayJob } from './planning/replay-worker';

serveReplayJob((db, connection) => new ReportedMinutesReader(db, { connection }));
