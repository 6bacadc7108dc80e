// Certificates of attendance, speaking and crewing, with their public verification address.
export {};
