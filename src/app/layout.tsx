// The frame around every page: product name, navigation, and the page itself.
import { Suspense } from 'react';
import { NavLink, Outlet, useNavigation } from 'react-router';
import { NAVIGATION } from './navigation';

export function AppLayout() {
  const navigation = useNavigation();
  return (
    <div className="app-shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <div className="app-brand">
          <svg aria-hidden="true" viewBox="0 0 32 32" width="24" height="24">
            <rect width="32" height="32" rx="7" fill="currentColor" />
            <path d="M16 6l8 3v6c0 5-3.4 9.3-8 11-4.6-1.7-8-6-8-11V9z" fill="#fff" />
          </svg>
          <span>Privacy API Console</span>
        </div>
        <nav aria-label="Main" className="app-nav">
          {NAVIGATION.map((entry) => (
            <NavLink key={entry.to} to={entry.to} title={entry.description}>
              {entry.label}
            </NavLink>
          ))}
        </nav>
      </header>
      <main id="main" className="app-main" aria-busy={navigation.state === 'loading'}>
        <Suspense fallback={<p className="muted">Loading…</p>}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
