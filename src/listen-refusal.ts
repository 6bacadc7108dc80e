// A port the service cannot listen on is the operator's to change, not a fault: said in one
// sentence naming the port and how to choose another (README "Settings"), never as Node's
// "listen EADDRINUSE" with a stack.
import { SettingsError } from './settings';

/** The operator's words for a listen error, or the error itself when it is not about the port. */
export function listenRefusal(error: unknown, port: number, host: string): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const choose = 'Choose another with --port N or the PORT environment variable.';
  if (code === 'EADDRINUSE') return new SettingsError(`Port ${port} on ${host} is already in use. ${choose}`);
  if (code === 'EACCES')
    return new SettingsError(`Port ${port} on ${host} needs privileges this process lacks. ${choose}`);
  if (code === 'EADDRNOTAVAIL')
    return new SettingsError(
      `${host} is not an address of this machine. Choose another with --host H or HOST.`,
    );
  return error;
}
