/**
 * @module
 * A new user's second factor, shown once: the `otpauth://` URI as a QR code (drawn by `qrcode`, the widget's
 * encoder, loaded only here) to scan into an authenticator app, and its secret as text to type instead.
 */
import { useEffect, useState } from 'preact/hooks';
import { useConsole } from '../app/console-context';
import * as controls from '../ui/controls.css';
import * as styles from './second-factor-code.css';

/** The QR code and the secret of `uri`. */
export function SecondFactorCode({ uri }: { uri: string }) {
  const { t } = useConsole();
  const [modules, setModules] = useState<{ size: number; path: string } | undefined>();
  const secret = new URL(uri).searchParams.get('secret') ?? '';

  useEffect(() => {
    let current = true;
    import('qrcode').then((qrcode) => {
      const { size, data } = qrcode.create(uri, { errorCorrectionLevel: 'M' }).modules;
      // One path of unit squares, drawn as SVG elements (no markup string: the CSP allows no inline content).
      let path = '';
      for (let index = 0; index < data.length; index++) {
        if (data[index]) path += `M${index % size} ${Math.floor(index / size)}h1v1h-1z`;
      }
      if (current) setModules({ size, path });
    });
    return () => {
      current = false;
    };
  }, [uri]);

  return (
    <div>
      <p>{t('scanCode')}</p>
      {modules && (
        <svg
          class={styles.code}
          viewBox={`-2 -2 ${modules.size + 4} ${modules.size + 4}`}
          width={200}
          height={200}
          role="img"
          aria-label={t('scanCode')}
          data-otpauth-qr
        >
          <path d={modules.path} />
        </svg>
      )}
      <p>
        {t('otpSecret')}:{' '}
        <output class={controls.code} data-otp-secret>
          {secret}
        </output>
      </p>
      <p class={`${controls.muted} ${controls.code}`}>{uri}</p>
    </div>
  );
}
