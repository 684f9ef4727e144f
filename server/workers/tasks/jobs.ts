// Worker tasks of the jobs area (owned by that area).
export {};
