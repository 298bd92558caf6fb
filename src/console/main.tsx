import { render } from 'preact';
import 'uplot/dist/uPlot.min.css';
import './console.css';
import { App } from './app.js';

const root = document.getElementById('console');
if (root) render(<App />, root);
