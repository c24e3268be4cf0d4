// Fixed reference data the demo data is drawn from: countries, product catalogue, places.
import { ISO_NUMERIC } from '../geo/country-codes.js';
import { OTHER_COUNTRIES } from './countries.js';
export const COMMODITIES = ['cattle', 'cocoa', 'coffee', 'palm_oil', 'rubber', 'soya', 'wood'] as const;
export type Commodity = (typeof COMMODITIES)[number];

export interface Country {
  name: string;
  alpha_2: string;
  alpha_3: string;
  numeric: string;
  official_name: string;
  flag: string;
  /** "member" for EU member states, "non_member" otherwise. */
  eu_status: 'member' | 'non_member';
}

const flag = (a2: string): string => String.fromCodePoint(...[...a2].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));

const C = (name: string, a2: string, a3: string, num: string, official: string, eu: boolean): Country => ({
  name,
  alpha_2: a2,
  alpha_3: a3,
  numeric: num,
  official_name: official,
  flag: flag(a2),
  eu_status: eu ? 'member' : 'non_member',
});

export const COUNTRIES: Country[] = [
  C('Austria', 'AT', 'AUT', '040', 'Republic of Austria', true),
  C('Belgium', 'BE', 'BEL', '056', 'Kingdom of Belgium', true),
  C('Bulgaria', 'BG', 'BGR', '100', 'Republic of Bulgaria', true),
  C('Croatia', 'HR', 'HRV', '191', 'Republic of Croatia', true),
  C('Cyprus', 'CY', 'CYP', '196', 'Republic of Cyprus', true),
  C('Czechia', 'CZ', 'CZE', '203', 'Czech Republic', true),
  C('Denmark', 'DK', 'DNK', '208', 'Kingdom of Denmark', true),
  C('Estonia', 'EE', 'EST', '233', 'Republic of Estonia', true),
  C('Finland', 'FI', 'FIN', '246', 'Republic of Finland', true),
  C('France', 'FR', 'FRA', '250', 'French Republic', true),
  C('Germany', 'DE', 'DEU', '276', 'Federal Republic of Germany', true),
  C('Greece', 'GR', 'GRC', '300', 'Hellenic Republic', true),
  C('Hungary', 'HU', 'HUN', '348', 'Hungary', true),
  C('Ireland', 'IE', 'IRL', '372', 'Ireland', true),
  C('Italy', 'IT', 'ITA', '380', 'Italian Republic', true),
  C('Latvia', 'LV', 'LVA', '428', 'Republic of Latvia', true),
  C('Lithuania', 'LT', 'LTU', '440', 'Republic of Lithuania', true),
  C('Luxembourg', 'LU', 'LUX', '442', 'Grand Duchy of Luxembourg', true),
  C('Malta', 'MT', 'MLT', '470', 'Republic of Malta', true),
  C('Netherlands', 'NL', 'NLD', '528', 'Kingdom of the Netherlands', true),
  C('Poland', 'PL', 'POL', '616', 'Republic of Poland', true),
  C('Portugal', 'PT', 'PRT', '620', 'Portuguese Republic', true),
  C('Romania', 'RO', 'ROU', '642', 'Romania', true),
  C('Slovakia', 'SK', 'SVK', '703', 'Slovak Republic', true),
  C('Slovenia', 'SI', 'SVN', '705', 'Republic of Slovenia', true),
  C('Spain', 'ES', 'ESP', '724', 'Kingdom of Spain', true),
  C('Sweden', 'SE', 'SWE', '752', 'Kingdom of Sweden', true),
  C('Brazil', 'BR', 'BRA', '076', 'Federative Republic of Brazil', false),
  C('Cameroon', 'CM', 'CMR', '120', 'Republic of Cameroon', false),
  C('Colombia', 'CO', 'COL', '170', 'Republic of Colombia', false),
  C("Côte d'Ivoire", 'CI', 'CIV', '384', "Republic of Côte d'Ivoire", false),
  C('Ecuador', 'EC', 'ECU', '218', 'Republic of Ecuador', false),
  C('Ethiopia', 'ET', 'ETH', '231', 'Federal Democratic Republic of Ethiopia', false),
  C('Ghana', 'GH', 'GHA', '288', 'Republic of Ghana', false),
  C('Indonesia', 'ID', 'IDN', '360', 'Republic of Indonesia', false),
  C('Malaysia', 'MY', 'MYS', '458', 'Malaysia', false),
  C('Nigeria', 'NG', 'NGA', '566', 'Federal Republic of Nigeria', false),
  C('Norway', 'NO', 'NOR', '578', 'Kingdom of Norway', false),
  C('Peru', 'PE', 'PER', '604', 'Republic of Peru', false),
  C('Switzerland', 'CH', 'CHE', '756', 'Swiss Confederation', false),
  C('Uganda', 'UG', 'UGA', '800', 'Republic of Uganda', false),
  C('United Kingdom', 'GB', 'GBR', '826', 'United Kingdom of Great Britain and Northern Ireland', false),
  C('United States', 'US', 'USA', '840', 'United States of America', false),
  C('Viet Nam', 'VN', 'VNM', '704', 'Socialist Republic of Viet Nam', false),
  // Every other country a country_code may name, so that an origin in Paraguay or an order crossing
  // into India has its country object, as on the service, and not null.
  ...OTHER_COUNTRIES.map(([a2, a3, name, official]) => C(name, a2, a3, ISO_NUMERIC[a2]!, official ?? name, false)),
];

export const COUNTRY_BY_A2 = new Map(COUNTRIES.map((c) => [c.alpha_2, c]));

export interface ProductTemplate {
  name: string;
  hs_code: string;
  type: ProductType;
  composition: 'simple' | 'composite';
  commodity: Commodity | null;
  species: Array<[common: string, scientific: string]>;
  unit: string;
}

/** Product types the sandbox accepts; the service's own list is not published. */
export const PRODUCT_TYPES = ['raw_material', 'intermediate', 'finished_good', 'packaging'] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];

const P = (
  commodity: Commodity | null,
  name: string,
  hs_code: string,
  type: ProductType,
  species: Array<[string, string]>,
  unit = 'kg',
  composition: 'simple' | 'composite' = 'simple',
): ProductTemplate => ({ commodity, name, hs_code, type, species, unit, composition });

const CACAO: [string, string] = ['Cacao', 'Theobroma cacao'];
const ARABICA: [string, string] = ['Arabica coffee', 'Coffea arabica'];
const ROBUSTA: [string, string] = ['Robusta coffee', 'Coffea canephora'];
const OIL_PALM: [string, string] = ['African oil palm', 'Elaeis guineensis'];
const SOY: [string, string] = ['Soybean', 'Glycine max'];
const CATTLE: [string, string] = ['Cattle', 'Bos taurus'];
const RUBBER: [string, string] = ['Pará rubber tree', 'Hevea brasiliensis'];
const OAK: [string, string] = ['Pedunculate oak', 'Quercus robur'];
const SPRUCE: [string, string] = ['Norway spruce', 'Picea abies'];
const PINE: [string, string] = ['Scots pine', 'Pinus sylvestris'];
const TEAK: [string, string] = ['Teak', 'Tectona grandis'];
const BEECH: [string, string] = ['European beech', 'Fagus sylvatica'];
const SAPELE: [string, string] = ['Sapele', 'Entandrophragma cylindricum'];

export const CATALOGUE: Record<'cacao' | 'trader' | 'timber', ProductTemplate[]> = {
  cacao: [
    P('cocoa', 'Cocoa beans, fermented and dried', '18010000', 'raw_material', [CACAO]),
    P('cocoa', 'Cocoa liquor', '18031000', 'intermediate', [CACAO]),
    P('cocoa', 'Cocoa butter, deodorised', '18040000', 'intermediate', [CACAO]),
    P('cocoa', 'Cocoa powder 10-12% fat', '18050000', 'intermediate', [CACAO]),
    P('cocoa', 'Dark chocolate 72% bar 100 g', '18063210', 'finished_good', [CACAO], 'pcs', 'composite'),
    P('cocoa', 'Milk chocolate couverture 33%', '18062010', 'finished_good', [CACAO, SOY, CATTLE], 'kg', 'composite'),
    P('cocoa', 'Pralines assortment 250 g', '18069011', 'finished_good', [CACAO, OIL_PALM, SOY], 'pcs', 'composite'),
    P('coffee', 'Green coffee beans, Arabica', '09011100', 'raw_material', [ARABICA]),
    P('coffee', 'Roasted coffee beans, espresso blend', '09012100', 'finished_good', [ARABICA, ROBUSTA], 'kg', 'composite'),
    P('palm_oil', 'Refined palm olein', '15119019', 'intermediate', [OIL_PALM]),
    P('palm_oil', 'Palm kernel oil', '15132110', 'intermediate', [OIL_PALM]),
    P('soya', 'Soya lecithin E322', '29232000', 'intermediate', [SOY]),
    P('cattle', 'Bovine gelatine', '35030010', 'intermediate', [CATTLE]),
    P('cattle', 'Skimmed milk powder', '04021019', 'intermediate', [CATTLE]),
    P('rubber', 'Natural rubber conveyor gaskets', '40169300', 'packaging', [RUBBER], 'pcs'),
    P('wood', 'Wooden pallets EUR 1', '44152020', 'packaging', [PINE, SPRUCE], 'pcs'),
    P('wood', 'Corrugated cardboard cartons', '48191000', 'packaging', [SPRUCE, PINE], 'pcs'),
    P(null, 'Cane sugar, refined', '17019910', 'raw_material', []),
    P(null, 'Hazelnut paste', '20081919', 'intermediate', []),
  ],
  trader: [
    P('cocoa', 'Cocoa beans, Forastero, grade I', '18010000', 'raw_material', [CACAO]),
    P('cocoa', 'Cocoa beans, Trinitario, fine flavour', '18010000', 'raw_material', [CACAO]),
    P('cocoa', 'Cocoa beans, certified organic', '18010000', 'raw_material', [CACAO]),
    P('cocoa', 'Cocoa butter, natural', '18040000', 'intermediate', [CACAO]),
    P('coffee', 'Green coffee, Robusta screen 16', '09011100', 'raw_material', [ROBUSTA]),
    P('coffee', 'Green coffee, Arabica washed', '09011100', 'raw_material', [ARABICA]),
    P('palm_oil', 'Crude palm oil', '15111090', 'raw_material', [OIL_PALM]),
    P('soya', 'Soya beans, non-GMO', '12019000', 'raw_material', [SOY], 't'),
    P('soya', 'Soya bean meal', '23040000', 'intermediate', [SOY], 't'),
    P('cattle', 'Bovine leather, wet blue', '41041110', 'intermediate', [CATTLE], 'm2'),
    P('rubber', 'Natural rubber, RSS3 sheets', '40012100', 'raw_material', [RUBBER]),
  ],
  timber: [
    P('wood', 'Oak sawn timber, kiln dried', '44079115', 'raw_material', [OAK], 'm3'),
    P('wood', 'Teak decking boards', '44072910', 'intermediate', [TEAK], 'm3'),
    P('wood', 'Spruce structural timber C24', '44071110', 'raw_material', [SPRUCE], 'm3'),
    P('wood', 'Birch plywood 18 mm', '44123300', 'intermediate', [['Silver birch', 'Betula pendula']], 'm3'),
    P('wood', 'Beech veneer sheets', '44083190', 'intermediate', [BEECH], 'm2'),
    P('wood', 'Sapele logs', '44034910', 'raw_material', [SAPELE], 'm3'),
    P('wood', 'Hardwood charcoal', '44029000', 'finished_good', [OAK, BEECH]),
    P('wood', 'Pine wood pellets', '44013100', 'finished_good', [PINE], 't'),
  ],
};

export interface Place {
  country: string;
  region: string;
  lat: number;
  lon: number;
  surnames: string[];
}

/** Production regions with farmer or forest owner surnames common there. */
// Centres of production areas, inland enough that plots drawn within 0.15° of them stay on land
// (coastal towns such as San-Pédro and Ilhéus sit a little inland of the town itself).
export const PLACES: Record<Commodity, Place[]> = (() => {
  const ci = ['Kouassi', 'Koné', 'Yao', 'Traoré', "N'Guessan", 'Konan', 'Bamba'];
  const gh = ['Mensah', 'Owusu', 'Boateng', 'Asante', 'Osei', 'Appiah'];
  const br = ['Silva', 'Santos', 'Oliveira', 'Souza', 'Pereira', 'Costa'];
  const id = ['Siregar', 'Nasution', 'Lubis', 'Harahap', 'Sinaga'];
  const co = ['Rodríguez', 'Gómez', 'Martínez', 'López', 'Muñoz'];
  const vn = ['Nguyễn', 'Trần', 'Lê', 'Phạm', 'Hoàng'];
  const pe = ['Quispe', 'Mamani', 'Huamán', 'Flores'];
  const ec = ['Zambrano', 'Mendoza', 'Vera', 'Cedeño'];
  const cm = ['Mbarga', 'Ngono', 'Essomba', 'Atangana'];
  const my = ['Abdullah', 'Wong', 'Lim', 'Anak Jugah'];
  const nordic = ['Lindqvist', 'Johansson', 'Virtanen', 'Korhonen', 'Andersson'];
  const lt = ['Kazlauskas', 'Jankauskas', 'Petrauskas'];
  const cocoa: Place[] = [
    { country: 'CI', region: 'Soubré', lat: 5.78, lon: -6.59, surnames: ci },
    { country: 'CI', region: 'Daloa', lat: 6.88, lon: -6.45, surnames: ci },
    { country: 'CI', region: 'San-Pédro', lat: 5.05, lon: -6.62, surnames: ci },
    { country: 'GH', region: 'Sefwi Wiawso', lat: 6.21, lon: -2.49, surnames: gh },
    { country: 'GH', region: 'Ashanti', lat: 6.69, lon: -1.62, surnames: gh },
    { country: 'EC', region: 'Manabí', lat: -1.05, lon: -80.45, surnames: ec },
    { country: 'PE', region: 'San Martín', lat: -6.49, lon: -76.37, surnames: pe },
    { country: 'CM', region: 'Centre', lat: 4.2, lon: 11.6, surnames: cm },
    { country: 'BR', region: 'Ilhéus', lat: -14.8, lon: -39.35, surnames: br },
  ];
  const coffee: Place[] = [
    { country: 'CO', region: 'Huila', lat: 2.53, lon: -75.52, surnames: co },
    { country: 'CO', region: 'Cauca', lat: 2.44, lon: -76.61, surnames: co },
    { country: 'VN', region: 'Đắk Lắk', lat: 12.67, lon: 108.04, surnames: vn },
    { country: 'ET', region: 'Sidama', lat: 6.75, lon: 38.4, surnames: ['Tesfaye', 'Bekele', 'Girma'] },
    { country: 'BR', region: 'Sul de Minas', lat: -21.55, lon: -45.43, surnames: br },
    { country: 'ID', region: 'Aceh Gayo', lat: 4.63, lon: 96.85, surnames: id },
  ];
  return {
    cocoa,
    coffee,
    palm_oil: [
      { country: 'ID', region: 'North Sumatra', lat: 2.1, lon: 99.5, surnames: id },
      { country: 'MY', region: 'Sarawak', lat: 2.5, lon: 112.5, surnames: my },
    ],
    soya: [{ country: 'BR', region: 'Mato Grosso', lat: -12.55, lon: -55.71, surnames: br }],
    cattle: [{ country: 'BR', region: 'Pará', lat: -3.2, lon: -52.21, surnames: br }],
    rubber: [
      { country: 'ID', region: 'Jambi', lat: -1.61, lon: 103.61, surnames: id },
      { country: 'CI', region: 'Grand-Béréby', lat: 4.95, lon: -7.05, surnames: ci },
    ],
    wood: [
      { country: 'SE', region: 'Småland', lat: 57.0, lon: 14.8, surnames: nordic },
      { country: 'FI', region: 'North Karelia', lat: 62.6, lon: 29.8, surnames: nordic },
      { country: 'LT', region: 'Kaunas', lat: 54.9, lon: 23.9, surnames: lt },
      { country: 'CM', region: 'East', lat: 4.58, lon: 13.68, surnames: cm },
    ],
  };
})();

export const FIRST_NAMES = [
  'Emma', 'Lars', 'Chloé', 'Matteo', 'Ines', 'Pieter', 'Hanna', 'Tomasz', 'Elif', 'Jan', 'Clara', 'Mateus',
  'Aïcha', 'Kofi', 'Sven', 'Lena', 'Marco', 'Julie', 'Yusuf', 'Greta', 'Ana', 'Olivier', 'Maja', 'Niels',
];
export const LAST_NAMES = [
  'Vermeulen', 'Dubois', 'Jacobs', 'Maes', 'Claes', 'Wouters', 'Fischer', 'Weber', 'Rossi', 'Nowak',
  'Kowalski', 'Berg', 'Moreau', 'Laurent', 'Hansen', 'Novak', 'Costa', 'Ferreira', 'Yilmaz', 'Keller',
];
export const JOB_TITLES = [
  'Sustainability Manager', 'Compliance Analyst', 'Procurement Lead', 'Supply Chain Analyst', 'Quality Manager',
  'Sourcing Specialist', 'Head of Legal', 'ESG Reporting Officer', 'Buyer', 'Data Steward',
];
