/** Placeholder dashboard until the dashboard issues land: says what the service is and where its API lives. */
export function App() {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 640, margin: '4rem auto', lineHeight: 1.5 }}>
      <h1>Workspace Admin</h1>
      <p>
        The service is running. Its API is at <code>/api</code>; call <code>GET /api/authorization</code> with an{' '}
        <code>x-api-key</code> header to check a key.
      </p>
    </main>
  );
}
