# estimate kind: albumentations of fixed output size, Normalize then ToTensorV2 (float32 C×H×W)
import albumentations as A
import cv2
from albumentations.pytorch import ToTensorV2
from torch.utils.data import DataLoader, Dataset


class Scans(Dataset):
    def __init__(self, paths, transform=None):
        self.paths = paths
        self.transform = transform

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        image = cv2.imread(self.paths[i])
        image = cv2.cvtColor(image, cv2.COLOR_BGR2RGB)
        if self.transform is not None:
            image = self.transform(image=image)["image"]
        return image, i


train_tf = A.Compose([A.RandomResizedCrop(height=256, width=320), A.HorizontalFlip(p=0.5), A.Normalize(), ToTensorV2()])
loader = DataLoader(Scans(["a.png"], transform=train_tf), batch_size=24, num_workers=4)
