// Worker tasks of the flows area (owned by that area).
export {};
