/**
 * Display names, in the four interface languages, of the $CASL token's allocation buckets,
 * sale phases, uses of funds, staking tiers and revenue streams. The figures themselves are the
 * domain's (domain/tokenomics/token-terms.ts).
 */
import type {
  AllocationKey,
  RevenueStreamKey,
  SalePhaseKey,
  StakingTierKey,
  UseOfFundsKey,
} from "#domain/tokenomics/token-terms.ts";
import type { Language } from "#i18n/config.ts";

/** A display string in each of the four interface languages. */
export type Translated = Readonly<Record<Language, string>>;

/** Display names of every item of the token terms. */
export const LABELS = {
  allocation: {
    privateSale: {
      en: "Private pre-sale",
      fr: "Prévente privée",
      it: "Prevendita privata",
      zh: "私募预售",
    },
    publicSale: { en: "Public sale", fr: "Vente publique", it: "Vendita pubblica", zh: "公开发售" },
    liquidity: { en: "Liquidity", fr: "Liquidité", it: "Liquidità", zh: "流动性" },
    treasury: { en: "Treasury", fr: "Trésorerie", it: "Tesoreria", zh: "金库" },
    team: { en: "Team", fr: "Équipe", it: "Team", zh: "团队" },
    amm: {
      en: "AMM (automated market maker)",
      fr: "AMM (teneur de marché automatisé)",
      it: "AMM (market maker automatizzato)",
      zh: "AMM（自动做市商）",
    },
    marketing: { en: "Marketing", fr: "Marketing", it: "Marketing", zh: "市场营销" },
    advisors: { en: "Advisors", fr: "Conseillers", it: "Consulenti", zh: "顾问" },
    partners: { en: "Partners", fr: "Partenaires", it: "Partner", zh: "合作伙伴" },
    stakingRewards: {
      en: "Staking rewards",
      fr: "Récompenses de staking",
      it: "Ricompense di staking",
      zh: "质押奖励",
    },
    airdrops: { en: "Airdrops", fr: "Airdrops", it: "Airdrop", zh: "空投" },
  } satisfies Record<AllocationKey, Translated>,
  salePhases: {
    strategicPreSale: {
      en: "Strategic pre-sale",
      fr: "Prévente stratégique",
      it: "Prevendita strategica",
      zh: "战略预售",
    },
    privateSale: { en: "Private sale", fr: "Vente privée", it: "Vendita privata", zh: "私募发售" },
    publicRound1: {
      en: "Public sale, round 1",
      fr: "Vente publique, tour 1",
      it: "Vendita pubblica, round 1",
      zh: "公开发售第1轮",
    },
    publicRound2: {
      en: "Public sale, round 2",
      fr: "Vente publique, tour 2",
      it: "Vendita pubblica, round 2",
      zh: "公开发售第2轮",
    },
    publicRound3: {
      en: "Public sale, round 3",
      fr: "Vente publique, tour 3",
      it: "Vendita pubblica, round 3",
      zh: "公开发售第3轮",
    },
    publicRound4: {
      en: "Public sale, round 4",
      fr: "Vente publique, tour 4",
      it: "Vendita pubblica, round 4",
      zh: "公开发售第4轮",
    },
    publicRound5: {
      en: "Public sale, round 5",
      fr: "Vente publique, tour 5",
      it: "Vendita pubblica, round 5",
      zh: "公开发售第5轮",
    },
    publicRound6: {
      en: "Public sale, round 6",
      fr: "Vente publique, tour 6",
      it: "Vendita pubblica, round 6",
      zh: "公开发售第6轮",
    },
  } satisfies Record<SalePhaseKey, Translated>,
  useOfFunds: {
    parisClub: {
      en: "Club property purchase in Paris",
      fr: "Achat de la propriété du club à Paris",
      it: "Acquisto della sede del club a Parigi",
      zh: "购置巴黎俱乐部物业",
    },
    dapp: {
      en: "dApp development",
      fr: "Développement de la dApp",
      it: "Sviluppo della dApp",
      zh: "dApp 开发",
    },
    liquidity: {
      en: "Liquidity, AMM and price stabilisation",
      fr: "Liquidité, AMM et stabilisation du prix",
      it: "Liquidità, AMM e stabilizzazione del prezzo",
      zh: "流动性、AMM 与价格稳定",
    },
    operations: {
      en: "Operating costs",
      fr: "Frais de fonctionnement",
      it: "Costi operativi",
      zh: "运营成本",
    },
    clubAssets: {
      en: "Club liquid assets",
      fr: "Actifs liquides du club",
      it: "Attività liquide del club",
      zh: "俱乐部流动资产",
    },
    marketing: { en: "Marketing", fr: "Marketing", it: "Marketing", zh: "市场营销" },
  } satisfies Record<UseOfFundsKey, Translated>,
  stakingTiers: {
    bronze: { en: "Bronze", fr: "Bronze", it: "Bronzo", zh: "青铜" },
    silver: { en: "Silver", fr: "Argent", it: "Argento", zh: "白银" },
    gold: { en: "Gold", fr: "Or", it: "Oro", zh: "黄金" },
    platinum: { en: "Platinum", fr: "Platine", it: "Platino", zh: "铂金" },
  } satisfies Record<StakingTierKey, Translated>,
  stakingPerks: {
    earlyEventAccess: {
      en: "Early access to event tickets",
      fr: "Accès anticipé aux billets des événements",
      it: "Accesso anticipato ai biglietti degli eventi",
      zh: "优先购买活动门票",
    },
  } satisfies Record<string, Translated>,
  revenue: {
    rwa: {
      en: "Real-world assets (RWA)",
      fr: "Actifs réels (RWA)",
      it: "Asset reali (RWA)",
      zh: "现实世界资产（RWA）",
    },
    wine: { en: "Wine", fr: "Vin", it: "Vino", zh: "葡萄酒" },
    estateBookings: {
      en: "Estate bookings",
      fr: "Réservations de domaines",
      it: "Prenotazioni delle tenute",
      zh: "庄园预订",
    },
    membership: { en: "Membership", fr: "Adhésions", it: "Iscrizioni", zh: "会员费" },
    foodAndBeverage: {
      en: "Food and beverage",
      fr: "Restauration",
      it: "Ristorazione",
      zh: "餐饮",
    },
    staking: { en: "Staking", fr: "Staking", it: "Staking", zh: "质押" },
  } satisfies Record<RevenueStreamKey, Translated>,
} as const;
