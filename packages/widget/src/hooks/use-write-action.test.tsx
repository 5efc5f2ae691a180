/** A write action runs one at a time, keeps its `run`, and keeps and reports its failure unless the widget is gone. */
import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiClient } from '../api/api-client';
import { useWriteAction, type WriteAction } from './use-write-action';

afterEach(() => {
  document.body.replaceChildren();
});

interface ProbeProps {
  action: () => Promise<void>;
  client: ApiClient;
  report: (error: unknown) => void;
  onFailure?: (error: unknown) => void;
  seen: WriteAction<[]>['run'][];
}

function Probe({ action, client, report, onFailure, seen }: ProbeProps) {
  const write = useWriteAction(action, { widget: { client, report }, ...(onFailure ? { onFailure } : {}) });
  seen.push(write.run);
  return (
    <div>
      <button
        type="button"
        aria-busy={write.busy}
        data-failures={write.failures}
        onClick={() => void write.run()}
      >
        {write.busy ? 'busy' : 'idle'}
      </button>
      {write.error !== null && <p role="alert">{(write.error as Error).message}</p>}
    </div>
  );
}

function deferred() {
  let resolve = () => {};
  let reject: (error: unknown) => void = () => {};
  const promise = new Promise<void>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

const newClient = () => new ApiClient({ apiBase: 'https://bff.test', widgetId: 'acme' });

describe('useWriteAction', () => {
  it('runs one at a time, is busy meanwhile, and keeps the same run across renders', async () => {
    const pending = deferred();
    const action = vi.fn(() => pending.promise);
    const seen: WriteAction<[]>['run'][] = [];
    render(<Probe action={action} client={newClient()} report={vi.fn()} seen={seen} />);
    const button = screen.getByRole('button');
    fireEvent.click(button);
    fireEvent.click(button);
    expect(action).toHaveBeenCalledOnce();
    await waitFor(() => expect(button.textContent).toBe('busy'));
    pending.resolve();
    await waitFor(() => expect(button.textContent).toBe('idle'));
    expect(new Set(seen).size).toBe(1);
  });

  it('counts its failures in a row, and starts again from none once it succeeds', async () => {
    const outcomes = [new Error('first'), new Error('second'), null, new Error('third')];
    const action = vi.fn(async () => {
      const outcome = outcomes.shift();
      if (outcome) throw outcome;
    });
    render(<Probe action={action} client={newClient()} report={vi.fn()} seen={[]} />);
    const button = screen.getByRole('button');
    for (const expected of ['1', '2', '0', '1']) {
      fireEvent.click(button);
      await waitFor(() => expect(action).toHaveBeenCalledTimes(4 - outcomes.length));
      await waitFor(() => expect(button.getAttribute('data-failures')).toBe(expected));
    }
  });

  it('keeps and reports a failure, calls onFailure, and clears the failure when run again', async () => {
    const refused = new Error('refused');
    const report = vi.fn();
    const onFailure = vi.fn();
    const action = vi.fn().mockRejectedValueOnce(refused).mockReturnValueOnce(deferred().promise);
    render(<Probe action={action} client={newClient()} report={report} onFailure={onFailure} seen={[]} />);
    fireEvent.click(screen.getByRole('button'));
    expect((await screen.findByRole('alert')).textContent).toBe('refused');
    expect(report).toHaveBeenCalledExactlyOnceWith(refused);
    expect(onFailure).toHaveBeenCalledExactlyOnceWith(refused);
    fireEvent.click(screen.getByRole('button'));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(action).toHaveBeenCalledTimes(2);
  });

  it('neither shows nor reports a failure once the element is gone', async () => {
    const client = newClient();
    const pending = deferred();
    const report = vi.fn();
    render(<Probe action={() => pending.promise} client={client} report={report} seen={[]} />);
    fireEvent.click(screen.getByRole('button'));
    client.close();
    pending.reject(new Error('aborted'));
    await new Promise((settle) => setTimeout(settle, 20));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(report).not.toHaveBeenCalled();
  });
});
