import type { GeometryCollection, Topology } from 'topojson-specification';

declare const topology: Topology<{ countries: GeometryCollection<{ name: string }> }>;
export default topology;
