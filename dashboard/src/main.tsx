import { render } from 'preact';
import { App } from './app.tsx';
import 'uplot/dist/uPlot.min.css';
import './styles.css';

const root = document.getElementById('app');
if (root) render(<App signupEnabled={root.dataset.signup === 'on'} />, root);
