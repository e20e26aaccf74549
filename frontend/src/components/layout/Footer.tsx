import { Link } from 'react-router-dom';
import './footer.css';

export function Footer() {
  const year = new Date().getFullYear();
  return (
    <footer className="footer">
      <div className="container footer__inner">
        <p className="footer__copy">© {year} FrameText</p>
        <nav aria-label="Footer" className="footer__links">
          <Link to="/blog">Blog</Link>
          <Link to="/about">About</Link>
          <Link to="/docs/api">API</Link>
          <Link to="/terms">Terms of Service</Link>
          <Link to="/privacy-policy">Privacy Policy</Link>
          <a href="mailto:support@frametext.app">Support</a>
        </nav>
      </div>
    </footer>
  );
}
