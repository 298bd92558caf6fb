// Style sheets imported for esbuild to bundle beside the script; they export nothing.
declare module '*.css';
