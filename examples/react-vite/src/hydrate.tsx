import { hydrateRoot } from 'react-dom/client';
import { SsrApp } from './SsrApp';

hydrateRoot(document.getElementById('root')!, <SsrApp />);
