import '@mantine/core/styles.css';
import '@mantine/dropzone/styles.css';
import './console.css';
import { createRoot } from 'react-dom/client';
import { App } from './App';

const root = document.getElementById('console');
if (!root) throw new Error('the page has no #console element');
createRoot(root).render(<App />);
