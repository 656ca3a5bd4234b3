// Shown for any URL the console does not have.
import { Link } from 'react-router';

export function NotFoundPage() {
  return (
    <section className="page">
      <h1>Page not found</h1>
      <p>
        This address is not part of the console. <Link to="/event-types">Go to event types</Link>.
      </p>
    </section>
  );
}
