// Worker tasks of the sessions area (owned by that area).
export {};
