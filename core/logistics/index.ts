// Speakers' and crew's logistics: hotel stays and journeys, arranged by the organiser.
export {};
