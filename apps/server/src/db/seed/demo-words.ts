// Word lists for synthetic data. Names are deliberately diverse and include accents and
// apostrophes, so that search, sorting, CSV and PDF output are exercised by the demo.

export const FIRST_NAMES = [
  "José", "Zoë", "Aaliyah", "Amir", "Ana", "Andrés", "Aryan", "Ava", "Beatriz", "Benjamin",
  "Björn", "Camila", "Carlos", "Chloé", "Chidi", "Daniela", "Darnell", "Diego", "Élodie", "Emeka",
  "Emily", "Esperanza", "Ethan", "Fatima", "Gabriel", "Grace", "Hana", "Hiroshi", "Ibrahim", "Imani",
  "Isabella", "Jamal", "Jasmine", "Javier", "Jayden", "Jin", "Joaquín", "Kai", "Keisha", "Leila",
  "Liam", "Lucía", "Malik", "Maya", "Mateo", "Mía", "Mohammed", "Nadia", "Naomi", "Nia",
  "Noah", "Olivia", "Oluwaseun", "Omar", "Priya", "Rafael", "Renée", "Rohan", "Sakura", "Samuel",
  "Sebastián", "Siobhán", "Sofía", "Tariq", "Thanh", "Valentina", "Wei", "Xavier", "Yasmin", "Zara",
  "Ángel", "Dmitri", "Ingrid", "Kwame", "Léa", "Marisol", "Nikhil", "Rosa", "Tomás", "Yusuf",
] as const;

export const LAST_NAMES = [
  "García", "Nguyen", "Smith", "Johnson", "Hernández", "Okafor", "Patel", "Kim", "Rodríguez", "López",
  "Pérez", "Martínez", "Chen", "Williams", "Brown", "Jones", "Davis", "Wilson", "Anderson", "Thomas",
  "Jackson", "White", "Harris", "Martin", "Thompson", "Moore", "Taylor", "Lee", "Walker", "Hall",
  "Allen", "Young", "King", "Wright", "Scott", "Green", "Baker", "Adams", "Nelson", "Hill",
  "Ramírez", "Campbell", "Mitchell", "Roberts", "Carter", "Phillips", "Evans", "Turner", "Torres", "Parker",
  "Müller", "O'Brien", "Kowalski", "Núñez", "Ahmed", "Santos", "Gómez", "Díaz", "Reyes", "Cruz",
  "Morales", "Ortiz", "Gutiérrez", "Chávez", "Ramos", "Ruiz", "Mendoza", "Álvarez", "Castillo", "Jiménez",
  "Vásquez", "Romero", "Herrera", "Medina", "Aguilar", "Adeyemi", "Mensah", "Haddad", "Al-Sayed", "Tanaka",
  "Suzuki", "Park", "Choi", "Singh", "Kaur", "Sharma", "Ivanova", "Novak", "Dubois", "D'Angelo",
  "Van der Berg", "Søndergaard", "Fitzgerald", "MacLeod", "Washington", "Jefferson", "Brooks", "Rivera", "Flores", "Cohen",
] as const;

export const TEAM_ADJECTIVES = [
  "Bright", "Bold", "Swift", "Golden", "Rising", "Northern", "Blue", "Crimson", "Silver", "Urban",
  "Green", "Clever", "Steady", "Brave", "Open", "Rapid",
] as const;

export const TEAM_NOUNS = [
  "Falcons", "Builders", "Navigators", "Makers", "Pioneers", "Sparks", "Innovators", "Owls", "Rockets", "Bridges",
  "Coders", "Gardeners", "Designers", "Voyagers", "Engineers", "Storytellers",
] as const;

export const ORG_PLACES = [
  "Riverside", "Eastgate", "Harborview", "Maple Street", "Summit", "Lakeside", "Westend", "Cedar Park",
  "Union Square", "Brookfield", "Sunnyvale", "Oakmont",
] as const;

export const ORG_KINDS = [
  { name: "Community Health Clinic", kind: "non-profit clinic", mission: "provides primary care to uninsured families" },
  { name: "Public Library", kind: "public library", mission: "runs literacy and digital-skills programmes for all ages" },
  { name: "Food Bank", kind: "regional food bank", mission: "distributes groceries to more than 2,000 households a month" },
  { name: "Credit Union", kind: "member-owned credit union", mission: "offers affordable banking and financial coaching" },
  { name: "Animal Shelter", kind: "no-kill animal shelter", mission: "rescues and rehomes cats and dogs" },
  { name: "Engineering Group", kind: "civil engineering firm", mission: "designs bridges, roads and stormwater systems" },
  { name: "Software Studio", kind: "small software company", mission: "builds web and mobile apps for local businesses" },
  { name: "Arts Collective", kind: "artist-run collective", mission: "hosts exhibitions, workshops and murals" },
  { name: "Hospital Foundation", kind: "hospital foundation", mission: "raises funds for paediatric care" },
  { name: "Urban Farm", kind: "urban farm", mission: "grows produce on vacant lots and teaches gardening" },
  { name: "Housing Coalition", kind: "housing non-profit", mission: "helps families find and keep affordable homes" },
  { name: "Robotics Lab", kind: "university robotics lab", mission: "researches assistive robots" },
  { name: "Transit Authority", kind: "public transit agency", mission: "runs the city's buses and light rail" },
  { name: "Youth Sports League", kind: "youth sports league", mission: "organises after-school sports for 1,500 children" },
  { name: "Energy Co-op", kind: "renewable energy co-operative", mission: "installs rooftop solar for members" },
  { name: "Media Center", kind: "community media centre", mission: "trains residents in video and podcast production" },
] as const;

export const PROJECT_VERBS = ["Design", "Build", "Research", "Launch", "Redesign", "Plan", "Prototype", "Evaluate"] as const;

export const PROJECT_ARTIFACTS = [
  "a volunteer sign-up website",
  "a social media campaign",
  "an inventory tracking spreadsheet",
  "a bilingual information leaflet",
  "a customer survey and summary report",
  "a mobile-friendly event calendar",
  "a short promotional video",
  "a data dashboard",
  "a recycling programme",
  "a small rain garden",
  "an onboarding guide for new volunteers",
  "a fundraising event",
] as const;

export const PROJECT_GOALS = [
  "reach more families in the neighbourhood",
  "cut the time staff spend on paperwork",
  "raise awareness among teenagers",
  "make services easier to find online",
  "measure what clients think of the programme",
  "reduce waste on site",
  "welcome Spanish-speaking visitors",
  "plan next year's budget",
] as const;

export const REFLECTION_ACTIVITIES = [
  "met with my mentor to plan our project milestones",
  "interviewed two staff members about their daily work",
  "built the first version of our prototype",
  "presented our progress to the team",
  "researched what similar organisations have done",
  "learned how to use a spreadsheet to track data",
  "helped run an event on Saturday",
  "wrote the first draft of our report",
  "tested our design with real users",
  "shadowed a manager for a whole day",
] as const;

export const REFLECTION_FEELINGS = [
  "I felt more confident speaking up in meetings.",
  "It was harder than I expected, but I learned a lot.",
  "I enjoyed working with my teammates.",
  "I was nervous at first but it went well.",
  "I struggled to manage my time this week.",
  "I am proud of what our team finished.",
  "I realised I like working with data.",
  "Getting feedback helped me improve.",
] as const;

export const REFLECTION_GOALS = [
  "finish the slides for our presentation",
  "ask more questions when I am stuck",
  "arrive on time to every meeting",
  "complete my past-due assessments",
  "learn more about careers in this field",
  "share the workload more evenly",
  "practise my presentation",
  "get feedback from my mentor earlier",
] as const;

export const ADVISOR_NOTES = [
  "Checked in about time management; agreed on a weekly plan.",
  "Strong contributions in the team meeting.",
  "Discussed transport problems; shared bus pass information.",
  "Student missed the meeting; left a voicemail for the family.",
  "Reviewed the reflection together; good insight into teamwork.",
  "Encouraged the student to take the lead on the presentation.",
  "Talked about college and career options after the programme.",
  "Followed up on the past-due assessment; student plans to finish it this week.",
  "Mentor reports great progress on the prototype.",
  "Student seemed tired; will check in again next week.",
] as const;
