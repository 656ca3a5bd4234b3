// `npm run alert-receiver`: the local receiver of demo mode. Prints the URL to give the console,
// then one line per alert received, verified with ALERT_RECEIVER_SECRET.
import { ConfigError, loadAlertReceiverSettings } from '../config/config';
import { startAlertReceiverServer } from './alert-receiver';

async function main(): Promise<void> {
  let settings: ReturnType<typeof loadAlertReceiverSettings>;
  try {
    settings = loadAlertReceiverSettings();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  const receiver = await startAlertReceiverServer(settings).catch((error: Error) => {
    console.error(`Could not listen on 127.0.0.1:${settings.port}: ${error.message}`);
    process.exit(1);
  });
  console.log(`Alert receiver listening on ${receiver.url}`);
  console.log(
    settings.secret
      ? '  signatures are checked with ALERT_RECEIVER_SECRET; a bad one is answered 401'
      : '  no ALERT_RECEIVER_SECRET: signed alerts are printed but NOT verified',
  );
  const stop = () => void receiver.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
