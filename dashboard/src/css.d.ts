// Stylesheets imported for their side effect: the bundler emits them as CSS files.
declare module '*.css';
