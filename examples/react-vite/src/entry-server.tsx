import { renderToString } from 'react-dom/server';
import { SsrApp } from './SsrApp';

export const render = () => renderToString(<SsrApp />);
