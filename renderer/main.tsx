import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { pickBridge } from './api';
import { App } from './App';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <App bridge={pickBridge()} />
  </StrictMode>,
);
