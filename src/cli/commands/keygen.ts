/**
 * `conformance keygen --out <prefix>`: an Ed25519 key pair for signing certificates. The private key is written
 * PKCS#8 PEM with mode 0600 (as `openssl genpkey -algorithm ed25519` writes it), the public key SPKI PEM (as
 * `openssl pkey -pubout` writes it); existing files are never overwritten, a key being hard to replace once trusted.
 */
import { generateKeyPairSync } from 'node:crypto';
import { chmod, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { publicKeySha256 } from '../../report/certificate.js';
import { defineCommand } from '../command.js';
import { ConfigError } from '../../errors.js';

interface KeygenFlags {
  readonly out?: string;
}

export const keygenCommand = defineCommand<KeygenFlags>({
  name: 'keygen',
  summary: 'make an Ed25519 key pair to sign certificates with',
  description: 'Writes <prefix>.key.pem (the private key, PKCS#8 PEM, readable by its owner only) and <prefix>.pub.pem '
    + '(the public key, SPKI PEM) for `certify --key` and `verify-certificate --public-key`. Refuses to overwrite. The '
    + 'same pair with openssl: `openssl genpkey -algorithm ed25519 -out <prefix>.key.pem` and `openssl pkey -in '
    + '<prefix>.key.pem -pubout -out <prefix>.pub.pem`.',
  examples: [['conformance keygen --out release', 'writes release.key.pem and release.pub.pem']],
  flags: (command) => command.option('--out <prefix>', 'the path both files start with (required)'),
  action: async (flags) => {
    if (flags.out === undefined || flags.out.trim() === '') throw new ConfigError('--out', 'is required: the path the key files start with (<prefix>.key.pem, <prefix>.pub.pem)');
    const prefix = resolve(flags.out);
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const privatePath = `${prefix}.key.pem`;
    const publicPath = `${prefix}.pub.pem`;
    const write = async (path: string, text: string, mode: number) => {
      try {
        await writeFile(path, text, { flag: 'wx', mode });
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        throw new ConfigError('--out', code === 'EEXIST' ? `would overwrite ${path}: choose another prefix or remove it` : `cannot write ${path}: ${(err as Error).message}`);
      }
      await chmod(path, mode); // the umask may have taken bits off the private key's mode, never added: set it exactly
    };
    await write(privatePath, privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, 0o600);
    await write(publicPath, publicKey.export({ type: 'spki', format: 'pem' }) as string, 0o644);
    process.stdout.write(`private key: ${privatePath} (mode 0600; keep it out of the repository)\npublic key: ${publicPath} (key ${publicKeySha256(publicKey).slice(0, 16)}…)\n`);
    return 0;
  },
});
