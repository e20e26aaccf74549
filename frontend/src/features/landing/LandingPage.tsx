import { useSession } from '../../lib/auth/hooks';
import { EngineComparison } from './components/EngineComparison';
import { FeatureCards } from './components/FeatureCards';
import { Hero } from './components/Hero';
import { ModeCards } from './components/ModeCards';
import { Pricing } from './components/Pricing';
import { StartCta } from './components/StartCta';
import { useFreeCredits } from './hooks';
import './LandingPage.css';

export default function LandingPage() {
  const signedIn = useSession() !== null;
  const freeCredits = useFreeCredits();
  return (
    <div className="landing">
      <Hero signedIn={signedIn} freeCredits={freeCredits} />
      <ModeCards />
      <FeatureCards />
      <EngineComparison />
      <Pricing freeCredits={freeCredits} />
      <StartCta signedIn={signedIn} />
    </div>
  );
}
