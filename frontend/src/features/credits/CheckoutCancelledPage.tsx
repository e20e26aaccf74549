import { Link } from 'react-router-dom';
import './checkout.css';

/** Where the payment page sends a person back when they gave up paying. */
export default function CheckoutCancelledPage() {
  return (
    <div className="container container--narrow page checkout">
      <div className="card checkout__card">
        <span className="checkout__icon" aria-hidden="true">
          ↩
        </span>
        <h1>Payment cancelled</h1>
        <p className="lead">Nothing was charged and your balance is unchanged. You can buy credits again whenever you are ready.</p>
        <Link to="/uploads" className="btn btn--primary">
          Return to dashboard
        </Link>
      </div>
    </div>
  );
}
